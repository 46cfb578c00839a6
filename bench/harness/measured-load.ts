import { cpuSnapshot, type CpuSnapshot } from './cpu';
import { loadInChild, type LoadRun, type LoadSpec, type RequestSpec } from './load';

export const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * A load from the load generator process, with the CPU counters taken as its measured run starts;
 * `onStart` is called then too (more counters to read at the same instant).
 */
export async function measuredLoad(spec: LoadSpec, onStart?: () => void): Promise<{ run: LoadRun; cpuAtStart: CpuSnapshot }> {
  let cpuAtStart: CpuSnapshot | undefined;
  const run = await loadInChild(spec, (pid) => {
    cpuAtStart = cpuSnapshot(pid);
    onStart?.();
  });
  return { run, cpuAtStart: cpuAtStart! };
}

/** How an open-loop load is paced: `rate` requests/s for `durationS`, at most `maxInFlight` at once. */
export interface Pace {
  rate: number;
  durationS: number;
  maxInFlight: number;
}

/** JSON POSTs to `url`, paced (open loop), measured as measuredLoad does. */
export function pacedLoad(url: string, request: RequestSpec, { rate, durationS, maxInFlight }: Pace, onStart?: () => void) {
  return measuredLoad({ url, method: 'POST', headers: JSON_HEADERS, request, shape: { kind: 'paced', rate, durationS, maxInFlight } }, onStart);
}
