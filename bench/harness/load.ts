import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { forkTs } from './child-process';
import { round } from './numbers';
import type { Idle } from './pool';

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

/** What each request carries, built by the load generator itself since functions cannot cross to its process. */
export type RequestSpec =
  | { kind: 'none' }
  | { kind: 'fixed'; body: string }
  /** Form A alert events titled `<prefix> <n>` (unique per request); dedup keys cycle over `dedupKeys` when set. */
  | { kind: 'alert'; prefix: string; dedupKeys?: number }
  /** Form B events (API-key surface receiver), titled and keyed as `alert`; signed with `signingSecret` when given. */
  | { kind: 'form-b'; prefix: string; dedupKeys?: number; signingSecret?: string }
  /** PagerDuty Events API v2 triggers for `routingKey`, titled (summary) and keyed as `alert`. */
  | { kind: 'pagerduty'; prefix: string; dedupKeys?: number; routingKey: string }
  /** Opsgenie Alert API creates, titled (message) and aliased as `alert` keys them; the GenieKey goes in the headers. */
  | { kind: 'opsgenie'; prefix: string; dedupKeys?: number }
  /**
   * POST `<basePath>/<id>/<operation>`, each request on an incident borrowed from a pool of
   * `incidents` (bench/harness/pool.ts) and returned with the status it answered; after a failure the
   * status is read back with GET `<basePath>/<id>`.
   */
  | { kind: 'lifecycle'; basePath: string; incidents: Idle[] };

/**
 * How requests are sent. `closed`: autocannon, `concurrency` connections each sending its next
 * request when the previous one is answered, after `warmup` uncounted requests. `paced`: open
 * loop, one request every 1/`rate` s whatever the answers (autocannon's own rate limit sends each
 * second's quota in a burst), at most `maxInFlight` at once, each given `timeoutMs` (10 s) to answer.
 */
export type LoadShapeSpec =
  | { kind: 'closed'; concurrency: number; durationS: number; warmup?: number }
  | { kind: 'paced'; rate: number; durationS: number; maxInFlight: number; timeoutMs?: number };

/** One HTTP load, run by the load generator process (bench/harness/load-child.ts). */
export interface LoadSpec {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  request: RequestSpec;
  shape: LoadShapeSpec;
}

/** What the load generator process sends back: a RunResult and what the ingestion figures need. */
export interface LoadRun extends RunResult {
  /** Every answer of the measured run by HTTP status, 2xx included. */
  statuses: Record<string, number>;
  /** Wall-clock time (Date.now()) of the first and last 2xx answer; NaN when there was none. */
  first2xxAt: number;
  last2xxAt: number;
  /** Paced alert runs only: each 2xx-answered event's title and the wall-clock time of its answer. */
  answered: Array<[title: string, at: number]>;
  /** CPU time the load generator process used during the measured run, ms. */
  cpuMs: number;
  /** Lifecycle runs only: 2xx answers with another status than the operation produces, and the pool as it ends. */
  lifecycle?: { wrongStatus: number; idle: Idle[] };
}

/** 2xx answers of a run. */
export const accepted = (run: RunResult) => run.latencies.length;

/** A load's answers by HTTP status, as the notes print them. */
export const statusesOf = (run: LoadRun) => JSON.stringify(run.statuses);

/**
 * A run made of latencies measured some other way (from timestamps, not answers), shaped like
 * `like`; `missing` counts those that never arrived, by reason.
 */
export function valuesRun(values: number[], like: { durationS: number; concurrency: number }, missing: Record<string, number> = {}): RunResult {
  const failures = Object.fromEntries(Object.entries(missing).filter(([, n]) => n > 0));
  return { latencies: values, failures, samples: [], transportErrors: 0, durationS: like.durationS, concurrency: like.concurrency };
}

const LOAD_CHILD = path.join(__dirname, 'load-child.ts');

/** What the load generator process says: the measured run starts now; its result; or why it failed. */
export type ChildMessage = { started: true } | { run: LoadRun } | { error: string };

/**
 * Runs one load in a separate Node process, so the load generator does not take the event loop
 * and the CPU time of the process it measures. `onStarted` hears the process id when the measured
 * run begins (after start-up and warm-up). Resolves once the process has exited.
 */
export function loadInChild(spec: LoadSpec, onStarted?: (pid: number) => void): Promise<LoadRun> {
  return new Promise((resolve, reject) => {
    const child = forkTs(LOAD_CHILD);
    let answer: { run: LoadRun } | { error: string } | undefined;
    child.on('message', (msg: ChildMessage) => {
      if ('started' in msg) onStarted?.(child.pid!);
      else answer = msg;
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (!answer) reject(new Error(`the load generator exited (${code ?? signal}) without a result`));
      else if ('error' in answer) reject(new Error(`load generator: ${answer.error}`));
      else resolve(answer.run);
    });
    child.send(spec);
  });
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
 * A closed loop of `concurrency` workers calling `fn` until `durationMs` has passed (or
 * `amount` calls were started): the same load shape as autocannon, for non-HTTP calls.
 */
export async function closedLoop(opts: { concurrency: number; durationMs?: number; amount?: number }, fn: () => Promise<void>): Promise<RunResult> {
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
