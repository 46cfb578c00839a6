import { EntitySchema } from '@mikro-orm/core';

/**
 * The published latencies (docs/reliability.md, "Published latencies"), written only by
 * src/services/status/latency-metrics.ts: per histogram, its labels, a minute and a bucket, the
 * observations every process counted (each flushes every ~10 s). /api/status reads a day of them;
 * the retention purge deletes older minutes.
 */
export interface LatencyMinute {
  /** `alert_to_first_page`, `escalation_lateness` or `page_delivery`. */
  metric: string;
  /** The page's channel (page_delivery), else ''. */
  channel: string;
  /** The provider that took the page (page_delivery), else ''. */
  carrier: string;
  /** The minute (UTC, seconds zero) the observations were made in. */
  minute: Date;
  /** The bucket's upper bound in ms (src/services/status/histogram.ts, LATENCY_BOUNDS_MS); 2147483647 for the open one. */
  leMs: number;
  count: number;
  sumMs: number;
}

export const LatencyMinuteSchema = new EntitySchema<LatencyMinute>({
  name: 'LatencyMinute',
  tableName: 'latency_metrics',
  properties: {
    metric: { type: 'string', length: 32, primary: true },
    channel: { type: 'string', length: 16, primary: true },
    carrier: { type: 'string', length: 16, primary: true },
    minute: { type: 'Date', columnType: 'timestamptz', primary: true },
    leMs: { type: 'integer', primary: true },
    count: { type: 'integer' },
    sumMs: { type: 'double' },
  },
});

/**
 * The same observations summed since the installation began, per histogram, labels and bucket:
 * the cumulative counts GET /metrics shows (never purged: a Prometheus counter only grows).
 * Written only by src/services/status/latency-metrics.ts, with the minutes, in one transaction.
 */
export interface LatencyTotal {
  metric: string;
  channel: string;
  carrier: string;
  leMs: number;
  count: bigint;
  sumMs: number;
}

export const LatencyTotalSchema = new EntitySchema<LatencyTotal>({
  name: 'LatencyTotal',
  tableName: 'latency_totals',
  properties: {
    metric: { type: 'string', length: 32, primary: true },
    channel: { type: 'string', length: 16, primary: true },
    carrier: { type: 'string', length: 16, primary: true },
    leMs: { type: 'integer', primary: true },
    count: { type: 'bigint' },
    sumMs: { type: 'double' },
  },
});

/**
 * Which page of an incident was its first that a provider took, so alert-to-first-page is counted
 * once per incident however many pages go out at once. Written only by
 * src/services/paging/page-latency.ts; purged with its incident.
 */
export interface IncidentFirstPage {
  incidentId: string;
  notificationId: string;
  pagedAt: Date;
}

export const IncidentFirstPageSchema = new EntitySchema<IncidentFirstPage>({
  name: 'IncidentFirstPage',
  tableName: 'incident_first_pages',
  properties: {
    incidentId: { type: 'uuid', primary: true },
    notificationId: { type: 'uuid' },
    pagedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
