/**
 * The faults, in turn, during the load: kill -9 a worker and start it again; kill -9 both workers
 * mid-merge and ask for the merge again until it is done (with the merger); kill -9 an API
 * process (its senders fail over to the other) and start it again; take the Temporal server down
 * (the dev server stopped, the cluster's killed -9) and start it again; restart Postgres. Each starts a while after the one before it is done (the system gets
 * to carry load between them), so two never overlap; the load goes on until the last is done.
 */
import type { Child } from './processes';

/** One fault: how long after the previous one (or the start of the load) it starts, and what it does. */
export interface Fault {
  afterMs: number;
  name: string;
  run: () => Promise<void>;
}

/** What happened: when it started, how long it took, whether it failed. */
export interface FaultRecord {
  name: string;
  startedAtS: number;
  tookS: number;
  error?: string;
}

/** Restartable servers the schedule drives. */
export interface ChaosTargets {
  worker: Child;
  api: Child;
  /** The Temporal server: `down` is how it goes away (a restart for the dev server, kill -9 for the cluster's). */
  temporal: { down: { name: string; run(): Promise<void> }; start(): Promise<void> };
  postgres: { stop(): Promise<void>; start(): Promise<void> };
  /** Merging during the load (merges.ts): a merge whose workers are killed -9 mid-way, then finished by asking again. */
  midMerge?: { name: string; run(): Promise<void> };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How long a killed API stays down, and a stopped server, so senders meet the outage. */
const DOWN_MS = { api: 5000, temporal: 3000, postgres: 3000 };
/** Load carried between two faults. */
const GAP_MS = 12_000;

export function faultSchedule(t: ChaosTargets): Fault[] {
  return [
    {
      afterMs: 10_000,
      name: `kill -9 ${t.worker.name}, start it again`,
      run: async () => {
        await t.worker.kill9();
        await t.worker.start();
      },
    },
    ...(t.midMerge ? [{ afterMs: GAP_MS, name: t.midMerge.name, run: () => t.midMerge!.run() }] : []),
    {
      afterMs: GAP_MS,
      name: `kill -9 ${t.api.name}, start it again after ${DOWN_MS.api / 1000} s`,
      run: async () => {
        await t.api.kill9();
        await sleep(DOWN_MS.api);
        await t.api.start();
      },
    },
    {
      afterMs: GAP_MS,
      name: `${t.temporal.down.name}, start it again after ${DOWN_MS.temporal / 1000} s`,
      run: async () => {
        await t.temporal.down.run();
        await sleep(DOWN_MS.temporal);
        await t.temporal.start();
      },
    },
    {
      afterMs: GAP_MS,
      name: `restart Postgres (down ${DOWN_MS.postgres / 1000} s)`,
      run: async () => {
        await t.postgres.stop();
        await sleep(DOWN_MS.postgres);
        await t.postgres.start();
      },
    },
  ];
}

/** Runs the faults in turn against a load that started at `startedAt`. */
export async function runFaults(faults: Fault[], startedAt: number, say: (line: string) => void): Promise<FaultRecord[]> {
  const records: FaultRecord[] = [];
  for (const fault of faults) {
    await sleep(fault.afterMs);
    const began = Date.now();
    say(`fault at ${Math.round((began - startedAt) / 1000)} s: ${fault.name}`);
    const record: FaultRecord = { name: fault.name, startedAtS: (began - startedAt) / 1000, tookS: 0 };
    try {
      await fault.run();
    } catch (err) {
      record.error = err instanceof Error ? err.message : String(err);
      say(`fault failed: ${fault.name}: ${record.error}`);
    }
    record.tookS = (Date.now() - began) / 1000;
    say(`fault done in ${record.tookS.toFixed(1)} s: ${fault.name}`);
    records.push(record);
  }
  return records;
}
