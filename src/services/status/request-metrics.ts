import type { MikroORM } from '@mikro-orm/postgresql';
import { Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { knexOf } from '../../db/knex';
import { BUCKET_BOUNDS_MS, emptyBuckets, mergeInto, observe, STORED_BOUNDS_MS, type Buckets } from './histogram';

/** Our HTTP surfaces (docs/architecture.md, "Processes and surfaces"), as request-log.ts names them. */
export const SURFACES = ['app', 'ingest', 'api-key'] as const;
export type Surface = (typeof SURFACES)[number];

const MINUTE_MS = 60_000;

/**
 * One process's request durations per surface and minute, kept until a flush takes them. Counts
 * are added in the database, so any number of processes (and flushes) sum up.
 */
export class RequestRecorder {
  private pending = new Map<string, { surface: Surface; minute: number; buckets: Buckets }>();

  /** Counts one request that ended at `at` (epoch ms). */
  observe(surface: Surface, durationMs: number, at = Date.now()): void {
    const minute = Math.floor(at / MINUTE_MS) * MINUTE_MS;
    const key = `${surface}@${minute}`;
    let entry = this.pending.get(key);
    if (!entry) this.pending.set(key, (entry = { surface, minute, buckets: emptyBuckets() }));
    observe(entry.buckets, durationMs);
  }

  /** Takes everything counted so far (synchronously: concurrent flushes never count twice). */
  drain(): Array<{ surface: Surface; minute: number; buckets: Buckets }> {
    const taken = [...this.pending.values()];
    this.pending = new Map();
    return taken;
  }

  /** Puts back what a failed flush took, to go with the next one. */
  restore(entries: ReturnType<RequestRecorder['drain']>): void {
    for (const e of entries) {
      const key = `${e.surface}@${e.minute}`;
      const entry = this.pending.get(key);
      if (entry) mergeInto(entry.buckets, e.buckets);
      else this.pending.set(key, e);
    }
  }
}

/**
 * Writes what a recorder holds, adding to the rows other processes wrote for the same minute.
 * Returns the requests written; on failure the counts go back to the recorder.
 */
export async function flushRequestMetrics(orm: MikroORM, recorder: RequestRecorder): Promise<number> {
  const entries = recorder.drain();
  const rows = entries.flatMap((e) =>
    STORED_BOUNDS_MS.map((le, i) => ({
      surface: e.surface,
      minute: new Date(e.minute),
      le_ms: le,
      count: e.buckets.counts[i],
      sum_ms: e.buckets.sumsMs[i],
    })).filter((r) => r.count > 0),
  );
  if (rows.length === 0) return 0;
  try {
    // Sorted: two processes upserting the same minutes take the row locks in the same order.
    rows.sort((a, b) => a.surface.localeCompare(b.surface) || a.minute.getTime() - b.minute.getTime() || a.le_ms - b.le_ms);
    await knexOf(orm)('request_metrics')
      .insert(rows)
      .onConflict(['surface', 'minute', 'le_ms'])
      .merge({ count: knexOf(orm).raw('request_metrics.count + excluded.count'), sum_ms: knexOf(orm).raw('request_metrics.sum_ms + excluded.sum_ms') });
    return rows.reduce((n, r) => n + r.count, 0);
  } catch (err) {
    recorder.restore(entries);
    throw err;
  }
}

/** Flushes a recorder every `everyMs` (10 s), and once more on stop. */
export class RequestMetricsFlusher {
  private timer?: NodeJS.Timeout;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly orm: MikroORM,
    private readonly recorder: RequestRecorder,
    private readonly onError: (err: unknown) => void,
  ) {}

  start(everyMs = 10_000): void {
    this.timer = setInterval(() => void this.flush(), everyMs);
    this.timer.unref();
  }

  /** One flush after the previous one finished; errors go to `onError` (the counts are kept). */
  flush(): Promise<unknown> {
    this.running = this.running.then(() => flushRequestMetrics(this.orm, this.recorder).catch(this.onError));
    return this.running;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}

/** Prometheus: this process's histograms (GET /metrics), beside the default process metrics. */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: 'klaxon_' });

export const REQUEST_HISTOGRAM_NAME = 'klaxon_http_request_duration_seconds';
const requestHistogram = new Histogram({
  name: REQUEST_HISTOGRAM_NAME,
  help: 'HTTP request durations per surface (app, ingest, api-key), as this process measured them',
  labelNames: ['surface'] as const,
  buckets: BUCKET_BOUNDS_MS.map((ms) => ms / 1000),
  registers: [metricsRegistry],
});
for (const surface of SURFACES) requestHistogram.labels(surface); // every surface listed, even before its first request

/** This process's recorder: request-log.ts counts into it, the listeners' flusher empties it. */
export const processRequestMetrics = new RequestRecorder();

/** Counts one answered request of a surface: into the process recorder and the Prometheus histogram. */
export function recordRequest(surface: Surface, durationMs: number): void {
  processRequestMetrics.observe(surface, durationMs);
  requestHistogram.labels(surface).observe(durationMs / 1000);
}
