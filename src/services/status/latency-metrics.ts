/**
 * The published latencies (docs/reliability.md, "Published latencies"): three histograms observed
 * where pages leave (the worker) and where delivery reports arrive (API processes), counted into
 * this process's recorder, flushed every 10 s into `latency_metrics` (per minute: /api/status's
 * hour and day) and `latency_totals` (running totals: GET /metrics), so any API process shows
 * what every process observed. This module is the one writer of both tables; the retention purge
 * deletes old minutes.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import { Registry, type Metric } from 'prom-client';
import { knexOf } from '../../db/knex';
import { emptyBuckets, LATENCY_BOUNDS_MS, quantile, storedBounds, type Buckets } from './histogram';
import { flushMinutes, MinuteRecorder, MinutesFlusher } from './minute-buckets';

/** The histograms, by the key their rows carry; each is `klaxon_<key>_seconds` on /metrics. */
export const LATENCY_METRICS = {
  alert_to_first_page: "From an incident's first alert reaching the ingest listener to its first page a provider took, once per incident",
  escalation_lateness: 'How late an escalation page started sending after its plan had it fall due (requested pages left out)',
  page_delivery: 'How long a page took to be delivered: claim to provider accepted, or for sms and voice sent to the carrier’s delivery report',
} as const;
export type LatencyMetric = keyof typeof LATENCY_METRICS;

/** One series: a histogram and its labels (empty strings for the two without labels). */
export interface LatencySeries extends Record<string, string> {
  metric: LatencyMetric;
  channel: string;
  carrier: string;
}

const TABLE = { name: 'latency_metrics', labels: ['metric', 'channel', 'carrier'] } as const;
const TOTALS = 'latency_totals';

export const prometheusName = (metric: LatencyMetric) => `klaxon_${metric}_seconds`;

/** One process's published latencies per series and minute, over the latency buckets (up to 5 min). */
export class LatencyRecorder extends MinuteRecorder<LatencySeries> {
  constructor() {
    super(LATENCY_BOUNDS_MS);
  }

  /** Counts one latency in seconds; a negative one (clocks of two hosts) counts as 0. */
  observe(metric: LatencyMetric, seconds: number, labels: { channel: string; carrier: string } = { channel: '', carrier: '' }, at = Date.now()): void {
    if (!Number.isFinite(seconds)) return;
    this.count({ metric, ...labels }, Math.max(0, seconds) * 1000, at);
  }
}

/** This process's recorder: the paging activities and delivery-report hooks count into it, its flusher empties it. */
export const processLatencyMetrics = new LatencyRecorder();

/**
 * How long a page took to be delivered, on its channel through its carrier (the provider key:
 * twilio, vonage, sendgrid, smtp, fcm, apns, web-push, dev_inbox…). The one call for whoever learns
 * that a page was delivered.
 */
export function observePageDelivery(channel: string, carrier: string, seconds: number): void {
  processLatencyMetrics.observe('page_delivery', seconds, { channel, carrier });
}

/** Writes what a recorder holds into the per-minute rows and the running totals; on failure the counts go back. */
export function flushLatencyMetrics(orm: MikroORM, recorder: LatencyRecorder = processLatencyMetrics): Promise<number> {
  return flushMinutes(orm, recorder, TABLE, TOTALS);
}

/** Flushes the process's latency recorder every 10 s (every role that observes: API, worker). */
export class LatencyMetricsFlusher extends MinutesFlusher {
  constructor(orm: MikroORM, onError: (err: unknown) => void, recorder: LatencyRecorder = processLatencyMetrics) {
    super(() => flushLatencyMetrics(orm, recorder), onError);
  }
}

const STORED = storedBounds(LATENCY_BOUNDS_MS);
const leLabel = (i: number) => (i === LATENCY_BOUNDS_MS.length ? '+Inf' : String(LATENCY_BOUNDS_MS[i] / 1000));

/**
 * The three histograms as Prometheus reads them, from the running totals every process flushed
 * (read at scrape time: any API process answers the same). The two without labels are shown at
 * zero before their first observation, so an alert rule sees a series rather than none.
 */
export async function latencyRegistry(orm: MikroORM): Promise<Registry> {
  const rows = (await knexOf(orm)(TOTALS).select('metric', 'channel', 'carrier', 'le_ms', 'count', 'sum_ms')) as Array<
    LatencySeries & { le_ms: number; count: string | number; sum_ms: number }
  >;
  const series = new Map<string, { s: LatencySeries; b: Buckets }>();
  for (const m of ['alert_to_first_page', 'escalation_lateness'] as const)
    series.set(JSON.stringify([m, '', '']), { s: { metric: m, channel: '', carrier: '' }, b: emptyBuckets(LATENCY_BOUNDS_MS) });
  for (const r of rows) {
    const i = STORED.indexOf(r.le_ms);
    if (!(r.metric in LATENCY_METRICS) || i === -1) continue; // a bucket layout we no longer use
    const key = JSON.stringify([r.metric, r.channel, r.carrier]);
    if (!series.has(key)) series.set(key, { s: { metric: r.metric, channel: r.channel, carrier: r.carrier }, b: emptyBuckets(LATENCY_BOUNDS_MS) });
    const { b } = series.get(key)!;
    b.counts[i] += Number(r.count);
    b.sumsMs[i] += Number(r.sum_ms);
  }
  const registry = new Registry();
  for (const metric of Object.keys(LATENCY_METRICS) as LatencyMetric[]) {
    const name = prometheusName(metric);
    const values = [...series.values()]
      .filter(({ s }) => s.metric === metric)
      .flatMap(({ s, b }) => histogramValues(name, metric === 'page_delivery' ? { channel: s.channel, carrier: s.carrier } : {}, b));
    // A metric of our own (prom-client's Histogram cannot be given counts): the registry only calls get().
    const shared = {
      name,
      help: LATENCY_METRICS[metric],
      type: 'histogram',
      aggregator: 'sum',
      get: async () => ({ name, help: LATENCY_METRICS[metric], type: 'histogram', aggregator: 'sum', values }),
      reset: () => undefined,
    };
    registry.registerMetric(shared as unknown as Metric);
  }
  return registry;
}

/** A histogram's exposition values: cumulative `_bucket` counts per `le` (seconds), `_sum` and `_count`. */
function histogramValues(name: string, labels: Record<string, string>, b: Buckets) {
  let cumulative = 0;
  const buckets = b.counts.map((n, i) => {
    cumulative += n;
    return { metricName: `${name}_bucket`, labels: { ...labels, le: leLabel(i) }, value: cumulative };
  });
  const sumSeconds = b.sumsMs.reduce((a, ms) => a + ms, 0) / 1000;
  return [...buckets, { metricName: `${name}_sum`, labels, value: sumSeconds }, { metricName: `${name}_count`, labels, value: cumulative }];
}

/** p50 and p99 in seconds, null when nothing was counted. */
export interface LatencyQuantiles {
  p50: number | null;
  p99: number | null;
}

const MINUTE_MS = 60_000;
/** The windows /api/status reports, in minutes (the current, partial minute included). */
export const LATENCY_WINDOWS = { hour: 60, day: 1440 } as const;

/**
 * Alert to first page over the last hour and day, from every process's per-minute buckets
 * summed. The quantiles are estimated as histogram_quantile does (./histogram.ts, `quantile`):
 * the bucket holding the rank, then linearly between its bounds by the rank's place among the
 * bucket's counts (a bucket is assumed evenly filled); past the last bound (5 min), the last bound.
 */
export async function alertToFirstPageLatency(orm: MikroORM, now = new Date()): Promise<Record<keyof typeof LATENCY_WINDOWS, LatencyQuantiles>> {
  const thisMinute = Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS;
  const since = (minutes: number) => new Date(thisMinute - (minutes - 1) * MINUTE_MS);
  const { rows } = (await knexOf(orm).raw(
    `select le_ms, sum(count) filter (where minute >= ?) as hour, sum(count) as day
       from latency_metrics where metric = 'alert_to_first_page' and minute >= ? and minute <= ? group by le_ms`,
    [since(LATENCY_WINDOWS.hour), since(LATENCY_WINDOWS.day), new Date(thisMinute)],
  )) as { rows: Array<{ le_ms: number; hour: string | null; day: string | null }> };
  const hour = emptyBuckets(LATENCY_BOUNDS_MS);
  const day = emptyBuckets(LATENCY_BOUNDS_MS);
  for (const r of rows) {
    const i = STORED.indexOf(r.le_ms);
    if (i === -1) continue;
    hour.counts[i] += Number(r.hour ?? 0);
    day.counts[i] += Number(r.day ?? 0);
  }
  return { hour: quantilesOf(hour), day: quantilesOf(day) };
}

/** p50 and p99 of buckets in seconds (ms to three decimals). */
export function quantilesOf(b: Buckets): LatencyQuantiles {
  const seconds = (ms: number | null) => (ms === null ? null : Math.round(ms) / 1000);
  return { p50: seconds(quantile(b, 0.5, LATENCY_BOUNDS_MS)), p99: seconds(quantile(b, 0.99, LATENCY_BOUNDS_MS)) };
}
