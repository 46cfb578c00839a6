import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { round } from './numbers';

/** Linux's USER_HZ: /proc reports process CPU time in these ticks (100 on every mainstream arch). */
const TICKS_PER_S = 100;

/** CPU counters at one instant, in ms. */
export interface CpuSnapshot {
  wallMs: number;
  machineBusyMs: number;
  selfMs: number;
  /** This process's descendants (embedded Postgres, the Temporal dev server); NaN off Linux. */
  descendantsMs: number;
}

/** Who used the CPU over an interval, in cores (CPU-seconds per second). */
export interface CpuSplit {
  seconds: number;
  /** The bench process: API, worker, outbox relay, Temporal client, the bench's own polling. */
  server: number;
  loadGenerator: number;
  /** Embedded Postgres and Temporal dev server (child processes of this one). */
  embedded: number;
  /** Everything else on the machine: other people's work. */
  rest: number;
  cores: number;
}

function machineBusyMs(): number {
  return os.cpus().reduce((sum, c) => sum + c.times.user + c.times.nice + c.times.sys + c.times.irq, 0);
}

/**
 * CPU time of every live descendant of `root` outside `exclude`'s subtree, plus what their own
 * exited children used (cutime/cstime: Postgres backends that came and went). Read from /proc.
 */
function descendantsMs(root: number, exclude?: number): number {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return NaN;
  }
  const procs = new Map<number, { ppid: number; ticks: number }>();
  for (const pid of entries) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces): state, ppid, … utime(14), stime, cutime, cstime.
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      procs.set(Number(pid), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) });
    } catch {
      // exited while we read
    }
  }
  const isDescendant = (pid: number): boolean => {
    if (pid === exclude) return false;
    for (let p = procs.get(pid)?.ppid; p !== undefined && p > 1; p = procs.get(p)?.ppid) {
      if (p === exclude) return false;
      if (p === root) return true;
    }
    return false;
  };
  let ticks = 0;
  for (const [pid, p] of procs) if (isDescendant(pid)) ticks += p.ticks;
  return (ticks * 1000) / TICKS_PER_S;
}

/** Counters now; `loadGenerator` names a live load generator process to leave out (it reports its own time). */
export function cpuSnapshot(loadGenerator?: number): CpuSnapshot {
  const self = process.cpuUsage();
  return {
    wallMs: performance.now(),
    machineBusyMs: machineBusyMs(),
    selfMs: (self.user + self.system) / 1000,
    descendantsMs: descendantsMs(process.pid, loadGenerator),
  };
}

/**
 * Splits the CPU used between two snapshots. Pass the CPU time the load generator reported for
 * the stretch, so it is counted once and not as part of the rest of the machine.
 */
export function cpuSplit(from: CpuSnapshot, to: CpuSnapshot, loadGeneratorMs = 0): CpuSplit {
  const wall = to.wallMs - from.wallMs;
  const per = (ms: number) => round(ms / wall, 2);
  const server = to.selfMs - from.selfMs;
  const embedded = to.descendantsMs - from.descendantsMs;
  const busy = to.machineBusyMs - from.machineBusyMs;
  return {
    seconds: Math.round(wall / 100) / 10,
    server: per(server),
    loadGenerator: per(loadGeneratorMs),
    embedded: per(embedded),
    rest: per(Math.max(0, busy - server - loadGeneratorMs - (Number.isNaN(embedded) ? 0 : embedded))),
    cores: os.cpus().length,
  };
}
