/**
 * Which OS threads of a process are Node worker_threads: where the Temporal SDK runs workflow
 * code (nothing else in Klaxon starts one). /proc does not tell them from Node's other threads
 * (proc.ts, header), so each thread is asked its own id: readlink('/proc/thread-self') →
 * `<pid>/task/<tid>`.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';

/**
 * This process's worker threads, asked through an in-process inspector session: each evaluates
 * the readlink (the inspector's command-line API lends it `require`).
 */
export async function workerThreadIdsHere(): Promise<Set<number>> {
  const session = new Session();
  session.connect();
  const workers: string[] = [];
  const tids = new Set<number>();
  session.on('NodeWorker.attachedToWorker', (m) => workers.push(m.params.sessionId));
  session.on('NodeWorker.receivedMessageFromWorker', (m) => {
    const msg = JSON.parse(m.params.message) as { result?: { result?: { value?: unknown } } };
    const value = msg.result?.result?.value;
    const tid = typeof value === 'string' ? Number(/\/task\/(\d+)$/.exec(value)?.[1]) : NaN;
    if (!Number.isNaN(tid)) tids.add(tid);
  });
  const post = (method: string, params: object) =>
    new Promise<void>((resolve, reject) => session.post(method, params, (err) => (err ? reject(err) : resolve())));
  try {
    await post('NodeWorker.enable', { waitForDebuggerOnStart: false });
    // Attachments are reported as events right after enable; give them a moment to arrive.
    await new Promise((r) => setTimeout(r, 200));
    const expression = "require('node:fs').readlinkSync('/proc/thread-self')";
    for (const sessionId of workers) {
      const message = JSON.stringify({ id: 1, method: 'Runtime.evaluate', params: { expression, includeCommandLineAPI: true, returnByValue: true } });
      await post('NodeWorker.sendMessageToWorker', { sessionId, message });
    }
    await new Promise((r) => setTimeout(r, 200));
    return tids;
  } finally {
    await post('NodeWorker.disable', {}).catch(() => undefined);
    session.disconnect();
  }
}

/**
 * For child processes: a preload that every worker thread of a process started with the returned
 * NODE_OPTIONS runs first thing (Node runs --require modules in worker threads too), writing its
 * thread id to a file in `dir`. Plain JavaScript, written at run time: the roles run from dist/.
 */
export function threadTagging(dir: string): { nodeOptions: string; tids: (pid: number | undefined) => Set<number> } {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'thread-tag.js');
  writeFileSync(
    file,
    [
      "const { isMainThread } = require('node:worker_threads');",
      "const fs = require('node:fs');",
      'if (!isMainThread) {',
      "  const [pid, , tid] = fs.readlinkSync('/proc/thread-self').split('/');",
      `  fs.writeFileSync(${JSON.stringify(dir)} + '/' + pid + '-' + tid + '.tid', '');`,
      '}',
      '',
    ].join('\n'),
  );
  return {
    nodeOptions: `--require ${file}`,
    tids: (pid) => {
      const out = new Set<number>();
      if (pid === undefined) return out;
      for (const name of readdirSync(dir)) {
        const m = /^(\d+)-(\d+)\.tid$/.exec(name);
        if (m && Number(m[1]) === pid) out.add(Number(m[2]));
      }
      return out;
    },
  };
}
