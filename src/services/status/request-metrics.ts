import type { MikroORM } from '@mikro-orm/postgresql';
import { Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { BUCKET_BOUNDS_MS } from './histogram';
import { flushMinutes, MinuteRecorder, MinutesFlusher } from './minute-buckets';

/** Our HTTP surfaces (docs/architecture.md, "Processes and surfaces"), as request-log.ts names them. */
export const SURFACES = ['app', 'ingest', 'api-key'] as const;
export type Surface = (typeof SURFACES)[number];

/** One process's request durations per surface and minute (./minute-buckets.ts). */
export class RequestRecorder extends MinuteRecorder<{ surface: Surface }> {
  /** Counts one request that ended at `at` (epoch ms). */
  observe(surface: Surface, durationMs: number, at = Date.now()): void {
    this.count({ surface }, durationMs, at);
  }
}

const REQUEST_TABLE = { name: 'request_metrics', labels: ['surface'] } as const;

/**
 * Writes what a recorder holds, adding to the rows other processes wrote for the same minute.
 * Returns the requests written; on failure the counts go back to the recorder.
 */
export function flushRequestMetrics(orm: MikroORM, recorder: RequestRecorder): Promise<number> {
  return flushMinutes(orm, recorder, REQUEST_TABLE);
}

/** Flushes a request recorder every `everyMs` (10 s), and once more on stop. */
export class RequestMetricsFlusher extends MinutesFlusher {
  constructor(orm: MikroORM, recorder: RequestRecorder, onError: (err: unknown) => void) {
    super(() => flushRequestMetrics(orm, recorder), onError);
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
