import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import { emptyBuckets, mean, quantile, STORED_BOUNDS_MS, totalCount, type Buckets } from './histogram';
import { SURFACES, type Surface } from './request-metrics';

/** The windows /api/response-time reports, in minutes (the current, partial minute included). */
export const RESPONSE_WINDOWS = { '5m': 5, '1h': 60, '24h': 1440 } as const;
export type ResponseWindow = keyof typeof RESPONSE_WINDOWS;
const WINDOW_NAMES = Object.keys(RESPONSE_WINDOWS) as ResponseWindow[];

/** One surface over one window: requests counted and the estimated quantiles (ms). */
export interface LatencySummary {
  count: number;
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
  mean_ms: number | null;
}

/** The summary of merged buckets. */
export function summarize(b: Buckets): LatencySummary {
  return { count: totalCount(b), p50_ms: quantile(b, 0.5), p95_ms: quantile(b, 0.95), p99_ms: quantile(b, 0.99), mean_ms: mean(b) };
}

const MINUTE_MS = 60_000;

/**
 * Per surface and window, the requests every process counted (request_metrics, flushed every
 * ~10 s) with p50/p95/p99 estimated from the summed buckets.
 */
export async function responseTimes(orm: MikroORM, now = new Date()): Promise<Record<Surface, Record<ResponseWindow, LatencySummary>>> {
  const thisMinute = Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS;
  const since = (w: ResponseWindow) => new Date(thisMinute - (RESPONSE_WINDOWS[w] - 1) * MINUTE_MS);
  const filtered = WINDOW_NAMES.flatMap((w) => [
    `sum(count) filter (where minute >= ?) as "c_${w}"`,
    `sum(sum_ms) filter (where minute >= ?) as "s_${w}"`,
  ]).join(', ');
  const { rows } = (await knexOf(orm).raw(`select surface, le_ms, ${filtered} from request_metrics where minute >= ? and minute <= ? group by surface, le_ms`, [
    ...WINDOW_NAMES.flatMap((w) => [since(w), since(w)]),
    since('24h'),
    new Date(thisMinute),
  ])) as { rows: Array<Record<string, string | number | null> & { surface: string; le_ms: number }> };
  const merged = Object.fromEntries(SURFACES.map((s) => [s, Object.fromEntries(WINDOW_NAMES.map((w) => [w, emptyBuckets()]))])) as Record<
    Surface,
    Record<ResponseWindow, Buckets>
  >;
  for (const row of rows) {
    const i = STORED_BOUNDS_MS.indexOf(row.le_ms);
    if (!(SURFACES as readonly string[]).includes(row.surface) || i === -1) continue; // a bucket layout we no longer use
    for (const w of WINDOW_NAMES) {
      merged[row.surface as Surface][w].counts[i] += Number(row[`c_${w}`] ?? 0);
      merged[row.surface as Surface][w].sumsMs[i] += Number(row[`s_${w}`] ?? 0);
    }
  }
  return Object.fromEntries(SURFACES.map((s) => [s, Object.fromEntries(WINDOW_NAMES.map((w) => [w, summarize(merged[s][w])]))])) as Record<
    Surface,
    Record<ResponseWindow, LatencySummary>
  >;
}
