/**
 * CPU time per component of the system under test (API, relay, worker threads, Temporal server,
 * Postgres), read from /proc (proc.ts), for the CPU-per-incident figures. A component is a
 * process, a process tree, or one kind of thread of a Node process running a Temporal worker.
 */
import { backendsMs, readProcesses, readThreads, threadSplit, treeMs, type ThreadKind, type ThreadsSample } from './proc';
import { round } from './numbers';

/**
 * Where to read one component from. `pid` undefined means not running (a stopped role: 0 ms when
 * `stoppedIsZero`, as for the workers a phase stops) or not ours to read (n/a).
 */
export type CpuSource = (ProcessSource | TreeSource | PostgresSource | ThreadsSource) & { pid: () => number | undefined; stoppedIsZero?: boolean };

/** A whole process (utime + stime of all its threads). */
interface ProcessSource {
  kind: 'process';
  name: string;
}

/** A process and its descendants, exited ones included: Postgres (the postmaster), the Temporal server. */
interface TreeSource {
  kind: 'tree';
  name: string;
}

/**
 * A Postgres server (its postmaster) split in two rows: the live backends serving the databases
 * `inPart` picks (on the cluster, Temporal's own persistence), and the rest of the tree (Klaxon's
 * backends, background processes, backends that exited during the stretch).
 */
interface PostgresSource {
  kind: 'postgres';
  names: { part: string; rest: string };
  inPart: (database: string) => boolean;
}

/**
 * A Node process with a Temporal worker, split per kind of thread: `labels` names the rows of the
 * kinds to show (a kind left out is added to the `other` row); `workflowTids` are its workflow threads.
 */
interface ThreadsSource {
  kind: 'threads';
  labels: Partial<Record<ThreadKind, string>> & { other: string };
  workflowTids: () => ReadonlySet<number>;
}

/** The counters of every component at one instant. */
export interface ComponentSample {
  atMs: number;
  /** Per source, in order: its pid then, and its counters (ms for a process or tree, per thread for `threads`). */
  read: Array<{ pid: number | undefined; ms?: number; partMs?: number; threads?: ThreadsSample }>;
}

/** CPU ms per component over a stretch; NaN when a component could not be read. */
export interface ComponentCpu {
  seconds: number;
  /** Component name → CPU ms, in the order of the sources. */
  ms: Array<[string, number]>;
}

/** Reads a fixed set of components; mark() twice and diff(). */
export class ComponentCpuMeter {
  constructor(readonly sources: CpuSource[]) {}

  mark(): ComponentSample {
    const procs = readProcesses();
    const read = this.sources.map((s) => {
      const pid = s.pid();
      if (pid === undefined) return { pid };
      if (s.kind === 'threads') return { pid, threads: readThreads(pid) };
      if (s.kind === 'postgres') return { pid, ms: treeMs(procs, pid), partMs: backendsMs(procs, pid, s.inPart) };
      return { pid, ms: s.kind === 'tree' ? treeMs(procs, pid) : (procs.get(pid)?.ownMs ?? NaN) };
    });
    return { atMs: performance.now(), read };
  }

  diff(from: ComponentSample, to: ComponentSample): ComponentCpu {
    const ms: Array<[string, number]> = [];
    this.sources.forEach((s, i) => {
      const a = from.read[i];
      const b = to.read[i];
      // Stopped all along: nothing used; a restart in between (another pid): unknown.
      const none = a.pid === undefined && b.pid === undefined ? (s.stoppedIsZero ? 0 : NaN) : undefined;
      const same = a.pid !== undefined && a.pid === b.pid;
      if (s.kind === 'postgres') {
        const part = none ?? (same ? b.partMs! - a.partMs! : NaN);
        ms.push([s.names.part, part], [s.names.rest, none ?? (same ? b.ms! - a.ms! - part : NaN)]);
        return;
      }
      if (s.kind !== 'threads') {
        ms.push([s.name, none ?? (same ? b.ms! - a.ms! : NaN)]);
        return;
      }
      const split = same && a.threads && b.threads ? threadSplit(b.pid!, a.threads, b.threads, s.workflowTids()) : undefined;
      const rows = new Map<string, number>();
      for (const kind of ['main', 'workflow', 'core', 'other'] as const) {
        const label = s.labels[kind] ?? s.labels.other;
        rows.set(label, (rows.get(label) ?? 0) + (none ?? (split ? split[kind] : NaN)));
      }
      ms.push(...rows);
    });
    return { seconds: round((to.atMs - from.atMs) / 1000, 1), ms };
  }
}

/** The sum of the components, NaN if one is unknown. */
export const totalMs = (c: ComponentCpu): number => c.ms.reduce((sum, [, ms]) => sum + ms, 0);

/** Per-unit figures (e.g. per incident) rounded to 0.01 ms, with the total last. */
export function perUnit(c: ComponentCpu, units: number): Array<[string, number]> {
  const rows: Array<[string, number]> = c.ms.map(([name, ms]) => [name, round(ms / units, 2)]);
  rows.push(['total', round(totalMs(c) / units, 2)]);
  return rows;
}

/** In cores (CPU-seconds per second), with the total last. */
export function inCores(c: ComponentCpu): Array<[string, number]> {
  const rows: Array<[string, number]> = c.ms.map(([name, ms]) => [name, round(ms / 1000 / c.seconds, 3)]);
  rows.push(['total', round(totalMs(c) / 1000 / c.seconds, 3)]);
  return rows;
}
