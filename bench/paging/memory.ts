import { Session } from 'node:inspector';
import { round } from '../harness/numbers';

/** This process's memory after a full GC in every isolate, in bytes. */
export interface MemorySample {
  /** Used V8 heap of the main thread (API, relay, activities, Temporal client). */
  mainHeap: number;
  /** Used V8 heap of the worker threads: the Temporal SDK runs workflow code there. */
  threadHeap: number;
  threads: number;
  /** Resident set of the whole process: both heaps, native memory, the Temporal core's (Rust) workflow state. */
  rss: number;
  external: number;
}

type Post = (method: string, params?: object) => Promise<Record<string, unknown>>;

/**
 * Forces a full garbage collection in the main thread and in every worker thread, then reads
 * each heap's used size, through an in-process inspector session: `node --expose-gc` is not set,
 * and a worker thread's heap is out of reach of process.memoryUsage().
 */
export async function memoryAfterGc(): Promise<MemorySample> {
  const session = new Session();
  session.connect();
  const post: Post = (method, params = {}) =>
    new Promise((resolve, reject) => session.post(method, params, (err, res) => (err ? reject(err) : resolve(res as Record<string, unknown>))));
  const workers: string[] = [];
  const replies = new Map<number, (msg: { result?: Record<string, unknown>; error?: { message: string } }) => void>();
  let nextId = 0;
  session.on('NodeWorker.attachedToWorker', (m) => workers.push(m.params.sessionId));
  session.on('NodeWorker.receivedMessageFromWorker', (m) => {
    const msg = JSON.parse(m.params.message) as { id?: number; result?: Record<string, unknown>; error?: { message: string } };
    if (msg.id !== undefined) replies.get(msg.id)?.(msg);
  });
  const inWorker =
    (sessionId: string): Post =>
    (method, params = {}) =>
      new Promise((resolve, reject) => {
        const id = ++nextId;
        replies.set(id, (msg) => (replies.delete(id), msg.error ? reject(new Error(msg.error.message)) : resolve(msg.result ?? {})));
        session.post('NodeWorker.sendMessageToWorker', { sessionId, message: JSON.stringify({ id, method, params }) });
      });
  const usedAfterGc = async (p: Post) => {
    await p('HeapProfiler.collectGarbage');
    return Number((await p('Runtime.getHeapUsage')).usedSize);
  };
  try {
    await post('NodeWorker.enable', { waitForDebuggerOnStart: false });
    // Attachments are reported as events right after enable; give them a moment to arrive.
    await new Promise((r) => setTimeout(r, 200));
    let threadHeap = 0;
    for (const w of workers) threadHeap += await usedAfterGc(inWorker(w));
    const mainHeap = await usedAfterGc(post);
    const { rss, external } = process.memoryUsage();
    return { mainHeap, threadHeap, threads: workers.length, rss, external };
  } finally {
    await post('NodeWorker.disable').catch(() => undefined);
    session.disconnect();
  }
}

const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

/** `main 80.1 MiB, threads 40.2 MiB, RSS 512.0 MiB`. */
export function describeMemory(m: MemorySample): string {
  return `main-thread heap ${mib(m.mainHeap)} MiB, workflow-thread heap ${mib(m.threadHeap)} MiB (${m.threads} thread${m.threads === 1 ? '' : 's'}), RSS ${mib(m.rss)} MiB`;
}

/** Sizes in MiB for results.json. */
export function memoryJson(m: MemorySample): Record<string, number> {
  const r = (bytes: number) => round(bytes / 2 ** 20);
  return { main_heap_mib: r(m.mainHeap), thread_heap_mib: r(m.threadHeap), threads: m.threads, rss_mib: r(m.rss), external_mib: r(m.external) };
}
