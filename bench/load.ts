import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';

/** Fixed concurrency for a fixed time, after `warmup` requests that are not counted. */
export interface LoadShape {
  concurrency: number;
  durationS: number;
  warmup: number;
}

/** What one measured run produced: every 2xx latency (ms), and what went wrong. */
export interface RunResult {
  latencies: number[];
  /** Failed calls by HTTP status code or error name (e.g. { "409": 3 }). */
  failures: Record<string, number>;
  /** The first few failure messages, for the report. */
  samples: string[];
  /** Connection errors and timeouts (no answer at all). */
  transportErrors: number;
  durationS: number;
  concurrency: number;
}

/** Latency summary of a run, in milliseconds, rounded to 0.1 ms. */
export interface Summary {
  p50: number;
  p99: number;
  mean: number;
  max: number;
  requests: number;
  errors: number;
  rps: number;
  concurrency: number;
}

const round = (x: number) => Math.round(x * 10) / 10;

/** Nearest-rank percentile of an ascending array. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1];
}

export function summarise(run: RunResult): Summary {
  const sorted = [...run.latencies].sort((a, b) => a - b);
  const errors = Object.values(run.failures).reduce((a, b) => a + b, 0) + run.transportErrors;
  return {
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    mean: round(sorted.reduce((a, b) => a + b, 0) / (sorted.length || 1)),
    max: round(sorted[sorted.length - 1] ?? NaN),
    requests: sorted.length + errors,
    errors,
    rps: round((sorted.length + errors) / run.durationS),
    concurrency: run.concurrency,
  };
}

/**
 * Runs autocannon and keeps each response time itself: autocannon's own histogram has 1 ms
 * resolution, too coarse for a read that answers in a few milliseconds.
 */
export function cannon(opts: autocannon.Options): Promise<RunResult> {
  const latencies: number[] = [];
  const failures: Record<string, number> = {};
  return new Promise((resolve, reject) => {
    const instance = autocannon(opts, (err, result) => {
      if (err) return reject(err);
      resolve({
        latencies,
        failures,
        samples: [],
        transportErrors: result.errors,
        durationS: result.duration,
        concurrency: result.connections,
      });
    });
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
      else failures[statusCode] = (failures[statusCode] ?? 0) + 1;
    });
  });
}

/**
 * A closed loop of `concurrency` workers calling `fn` until `durationMs` has passed (or
 * `amount` calls were started): the same load shape as autocannon, for non-HTTP calls.
 */
export async function closedLoop(
  opts: { concurrency: number; durationMs?: number; amount?: number },
  fn: () => Promise<void>,
): Promise<RunResult> {
  const latencies: number[] = [];
  const failures: Record<string, number> = {};
  const samples: string[] = [];
  const started = performance.now();
  const deadline = started + (opts.durationMs ?? Infinity);
  let begun = 0;
  const more = () => performance.now() < deadline && begun < (opts.amount ?? Infinity);
  const worker = async () => {
    while (more()) {
      begun++;
      const t0 = performance.now();
      try {
        await fn();
        latencies.push(performance.now() - t0);
      } catch (err) {
        const name = (err as Error).name || 'Error';
        failures[name] = (failures[name] ?? 0) + 1;
        if (samples.length < 3) samples.push(`${name}: ${(err as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  return { latencies, failures, samples, transportErrors: 0, durationS: (performance.now() - started) / 1000, concurrency: opts.concurrency };
}
