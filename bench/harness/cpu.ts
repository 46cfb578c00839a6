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
  /** Of descendantsMs: the processes named `postgres*` and `temporal*` (the rest: fakes and the like). */
  postgresMs: number;
  temporalMs: number;
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
function descendantsMs(root: number, exclude?: number): { all: number; postgres: number; temporal: number } {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return { all: NaN, postgres: NaN, temporal: NaN };
  }
  const procs = new Map<number, { ppid: number; ticks: number; name: string }>();
  for (const pid of entries) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces): state, ppid, … utime(14), stime, cutime, cstime.
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      procs.set(Number(pid), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]), name });
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
  let postgres = 0;
  let temporal = 0;
  for (const [pid, p] of procs) {
    if (!isDescendant(pid)) continue;
    ticks += p.ticks;
    if (p.name.startsWith('postgres')) postgres += p.ticks;
    else if (p.name.startsWith('temporal')) temporal += p.ticks;
  }
  const ms = (t: number) => (t * 1000) / TICKS_PER_S;
  return { all: ms(ticks), postgres: ms(postgres), temporal: ms(temporal) };
}

/** Counters now; `loadGenerator` names a live load generator process to leave out (it reports its own time). */
export function cpuSnapshot(loadGenerator?: number): CpuSnapshot {
  const self = process.cpuUsage();
  const descendants = descendantsMs(process.pid, loadGenerator);
  return {
    wallMs: performance.now(),
    machineBusyMs: machineBusyMs(),
    selfMs: (self.user + self.system) / 1000,
    descendantsMs: descendants.all,
    postgresMs: descendants.postgres,
    temporalMs: descendants.temporal,
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

/** CPU ms per unit of work (an incident, say) between two snapshots: this process, Postgres, Temporal, and their sum. */
export function cpuMsPer(from: CpuSnapshot, to: CpuSnapshot, units: number): { node: number; postgres: number; temporal: number; total: number } {
  const node = (to.selfMs - from.selfMs) / units;
  const postgres = (to.postgresMs - from.postgresMs) / units;
  const temporal = (to.temporalMs - from.temporalMs) / units;
  return { node: round(node, 2), postgres: round(postgres, 2), temporal: round(temporal, 2), total: round(node + postgres + temporal, 2) };
}
