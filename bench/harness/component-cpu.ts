/**
 * CPU time per component of the system under test (API, relay, worker threads, Temporal server,
 * Postgres), read from /proc (proc.ts), for the CPU-per-incident figures. A component is a
 * process, a process tree, or one kind of thread of a Node process running a Temporal worker.
 */
import { readProcesses, readThreads, threadSplit, treeMs, type ThreadKind, type ThreadsSample } from './proc';
import { round } from './numbers';

/** Where to read one component from. */
export type CpuSource =
  /** A whole process (utime + stime of all its threads). */
  | { kind: 'process'; name: string; pid: () => number | undefined }
  /** A process and its descendants, exited ones included: Postgres (the postmaster), the Temporal server. */
  | { kind: 'tree'; name: string; pid: () => number | undefined }
  /**
   * A Node process with a Temporal worker, split per kind of thread: `labels` names the rows of the
   * kinds to show (a kind left out is added to the `other` row); `workflowTids` are its workflow threads.
   */
  | {
      kind: 'threads';
      pid: () => number | undefined;
      labels: Partial<Record<ThreadKind, string>> & { other: string };
      workflowTids: () => ReadonlySet<number>;
    };

/** The counters of every component at one instant. */
export interface ComponentSample {
  atMs: number;
  trees: Map<string, number>;
  threads: Map<number, ThreadsSample | undefined>;
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
    const trees = new Map<string, number>();
    const threads = new Map<number, ThreadsSample | undefined>();
    for (const s of this.sources) {
      if (s.kind === 'threads') {
        const pid = s.pid();
        if (pid !== undefined) threads.set(pid, readThreads(pid));
        continue;
      }
      const pid = s.pid();
      const p = pid === undefined ? undefined : procs.get(pid);
      trees.set(s.name, s.kind === 'tree' ? treeMs(procs, pid) : p ? p.ownMs : NaN);
    }
    return { atMs: performance.now(), trees, threads };
  }

  diff(from: ComponentSample, to: ComponentSample): ComponentCpu {
    const ms: Array<[string, number]> = [];
    for (const s of this.sources) {
      if (s.kind !== 'threads') {
        ms.push([s.name, (to.trees.get(s.name) ?? NaN) - (from.trees.get(s.name) ?? NaN)]);
        continue;
      }
      const pid = s.pid();
      const a = pid === undefined ? undefined : from.threads.get(pid);
      const b = pid === undefined ? undefined : to.threads.get(pid);
      const split = pid !== undefined && a && b ? threadSplit(pid, a, b, s.workflowTids()) : undefined;
      const rows = new Map<string, number>();
      for (const kind of ['main', 'workflow', 'core', 'other'] as const) {
        const label = s.labels[kind] ?? s.labels.other;
        rows.set(label, (rows.get(label) ?? 0) + (split ? split[kind] : NaN));
      }
      ms.push(...rows);
    }
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
