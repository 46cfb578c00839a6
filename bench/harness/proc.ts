/**
 * CPU time per process and per thread, from Linux's /proc (utime + stime, in USER_HZ ticks of
 * 10 ms), for the CPU-per-incident split (component-cpu.ts). Pure parsing on top, the reads below.
 *
 * Threads of a Node process running a Temporal worker, as found on this machine (Node 20, SDK 1.24):
 * every thread Node itself starts is named `node` in /proc/<pid>/task/<tid>/comm: the main thread
 * (its tid is the pid), the V8 platform workers (GC, compilation), the libuv pool and the Node
 * worker_threads. The Temporal core (Rust, sdk-core) names its own: `tokio-runtime-w` (gRPC to
 * the server, pollers), `workflow-proces` (the core's workflow state machines) and
 * `temporal-real-s`. The SDK runs workflow code in Node worker_threads (one by default, with
 * reuseV8Context): a `node` thread like the rest, which nothing in /proc tells apart from the V8
 * and libuv ones. So their thread ids are asked of the threads themselves: in this process
 * through the inspector (each worker thread evaluates readlink('/proc/thread-self')); in a child
 * process through a preload (NODE_OPTIONS=--require, which Node also runs at the start of every
 * worker thread) that writes them to a file. Short-lived threads (the watchdog Node starts for
 * every vm entry with a timeout, which the SDK makes on every activation: nodejs/node#47739) have
 * left /proc by the time they are read: their time is only in the process's total, and lands in
 * the "other" share of that process.
 *
 * What one `klaxon worker` showed under the bench (Node 20.20, SDK 1.24, 16 live threads): the
 * main thread (`node`, tid = pid); 4 busy-ish `node` threads started with it (V8's platform
 * workers: GC, compilation) and 2 idle ones; 4 idle `node` threads started later (the libuv pool);
 * 2 `tokio-runtime-w`, `temporal-real-s` (idle) and `workflow-proces` (about as busy as the tokio
 * threads) from the core; and the workflow thread, a `node` thread as busy as the main thread,
 * which only the preload's file named. Now and then one more short-lived `node` thread (a vm
 * watchdog) that is gone a moment later.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Linux's USER_HZ: /proc reports CPU time in these ticks (100 on every mainstream arch). */
export const TICKS_PER_S = 100;
const MS_PER_TICK = 1000 / TICKS_PER_S;

/** The fields of a /proc/<pid>/stat (or task/<tid>/stat) line the bench uses; times in ms. */
export interface ProcStat {
  comm: string;
  ppid: number;
  /** utime + stime. */
  ownMs: number;
  /** cutime + cstime: waited-for children that have exited (a postmaster's old backends). */
  childrenMs: number;
}

/** Parses one stat line. The command name may hold spaces and parentheses: it ends at the last `)`. */
export function parseStat(line: string): ProcStat {
  const open = line.indexOf('(');
  const close = line.lastIndexOf(')');
  // Fields after the name, from field 3 (state): ppid is field 4, utime 14, stime 15, cutime 16, cstime 17.
  const f = line.slice(close + 2).split(' ');
  const n = (field: number) => Number(f[field - 3]);
  return {
    comm: line.slice(open + 1, close),
    ppid: n(4),
    ownMs: (n(14) + n(15)) * MS_PER_TICK,
    childrenMs: (n(16) + n(17)) * MS_PER_TICK,
  };
}

function readStat(file: string): ProcStat | undefined {
  try {
    return parseStat(readFileSync(file, 'utf8'));
  } catch {
    return undefined; // gone while we read
  }
}

/** One process's CPU, whole and per live thread. */
export interface ThreadsSample {
  /** The process's utime + stime: every thread, exited ones included. */
  totalMs: number;
  threads: Map<number, { comm: string; ms: number }>;
}

export function readThreads(pid: number): ThreadsSample | undefined {
  const total = readStat(`/proc/${pid}/stat`);
  if (!total) return undefined;
  const threads = new Map<number, { comm: string; ms: number }>();
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  for (const tid of tids) {
    const s = readStat(`/proc/${pid}/task/${tid}/stat`);
    if (s) threads.set(Number(tid), { comm: s.comm, ms: s.ownMs });
  }
  return { totalMs: total.ownMs, threads };
}

/** What a thread of a Node process running a Temporal worker does (see the header). */
export type ThreadKind = 'main' | 'workflow' | 'core' | 'other';

/** Rust threads of the Temporal core (sdk-core) name themselves; comm is cut at 15 characters. */
const CORE_THREADS = /^(tokio-runtime-w|workflow-proces|temporal-real-s|tokio-)/;

export function threadKind(pid: number, tid: number, comm: string, workflowTids: ReadonlySet<number>): ThreadKind {
  if (tid === pid) return 'main';
  if (workflowTids.has(tid)) return 'workflow';
  if (CORE_THREADS.test(comm)) return 'core';
  return 'other';
}

/**
 * CPU per kind of thread between two samples of one process, ms. Threads that started in between
 * count from 0; the time of threads that exited in between (and any rounding) is in `other`,
 * from the process total, so the kinds add up to the process's own CPU time.
 */
export function threadSplit(
  pid: number,
  from: ThreadsSample,
  to: ThreadsSample,
  workflowTids: ReadonlySet<number>,
): Record<ThreadKind, number> & { total: number } {
  const split = { main: 0, workflow: 0, core: 0, other: 0, total: to.totalMs - from.totalMs };
  let live = 0;
  for (const [tid, t] of to.threads) {
    const d = t.ms - (from.threads.get(tid)?.ms ?? 0);
    split[threadKind(pid, tid, t.comm, workflowTids)] += d;
    live += d;
  }
  split.other += split.total - live;
  return split;
}

/** Every process as /proc lists it now: parent and CPU, for walking trees. */
export function readProcesses(): Map<number, ProcStat> {
  const procs = new Map<number, ProcStat>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return procs;
  }
  for (const pid of entries) {
    const s = readStat(`/proc/${pid}/stat`);
    if (s) procs.set(Number(pid), s);
  }
  return procs;
}

/**
 * CPU of `root` and every live descendant, each with its exited children (cutime/cstime): for a
 * postmaster, itself, its live backends and the ones that came and went (it waits for them).
 * NaN when `root` is gone or undefined.
 */
export function treeMs(procs: Map<number, ProcStat>, root: number | undefined): number {
  if (root === undefined || !procs.has(root)) return NaN;
  let ms = 0;
  for (const [pid, p] of procs) {
    let under = pid === root;
    for (let q = p.ppid; !under && q > 1; q = procs.get(q)?.ppid ?? 0) if (q === root) under = true;
    if (under) ms += p.ownMs + p.childrenMs;
  }
  return ms;
}

/**
 * The database a Postgres backend serves, from its process title (`postgres: USER DB HOST(PORT)
 * STATE`, which Postgres writes over its argv, so /proc/<pid>/cmdline shows it); undefined for
 * the postmaster's own processes (`postgres: checkpointer`, …).
 */
export function backendDatabase(title: string): string | undefined {
  const words = title.replace(/\0/g, ' ').trim().split(/\s+/);
  return words[0] === 'postgres:' && words.length >= 4 ? words[2] : undefined;
}

/** CPU ms of the postmaster's live backends whose database `matches` (exited ones are in its cutime, not here). */
export function backendsMs(procs: Map<number, ProcStat>, postmaster: number, matches: (database: string) => boolean): number {
  let ms = 0;
  for (const [pid, p] of procs) {
    if (p.ppid !== postmaster) continue;
    let title = '';
    try {
      title = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue; // exited while we read
    }
    const database = backendDatabase(title);
    if (database !== undefined && matches(database)) ms += p.ownMs + p.childrenMs;
  }
  return ms;
}

/** Live descendants of `root` whose command is `comm` (e.g. the Temporal CLI a stack started). */
export function descendantsNamed(procs: Map<number, ProcStat>, root: number, comm: string): number[] {
  const out: number[] = [];
  for (const [pid, p] of procs) {
    if (p.comm !== comm) continue;
    for (let q = p.ppid; q > 1; q = procs.get(q)?.ppid ?? 0) {
      if (q === root) {
        out.push(pid);
        break;
      }
    }
  }
  return out;
}
