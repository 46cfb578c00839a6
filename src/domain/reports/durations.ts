/** Mean, median and 90th percentile of response times (MTTA, MTTR), in seconds. Pure. */

/** A set of durations summarised; the figures are null when there is none. */
export interface DurationStats {
  count: number;
  mean: number | null;
  p50: number | null;
  p90: number | null;
}

/** Seconds to the millisecond: timestamps carry no more, and floats should not show noise. */
const toMs = (seconds: number): number => Math.round(seconds * 1000) / 1000;

/**
 * The q-quantile of sorted values, interpolated between the two nearest ranks as Postgres'
 * `percentile_cont` does: p50 of [10, 20] is 15, p90 of 1..10 is 9.1.
 */
export function percentile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const below = Math.floor(at);
  const above = Math.ceil(at);
  return sorted[below] + (sorted[above] - sorted[below]) * (at - below);
}

/** Summarises durations in seconds (any order). */
export function summarise(durations: readonly number[]): DurationStats {
  if (durations.length === 0) return { count: 0, mean: null, p50: null, p90: null };
  const sorted = [...durations].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, d) => sum + d, 0) / sorted.length;
  return { count: sorted.length, mean: toMs(mean), p50: toMs(percentile(sorted, 0.5)), p90: toMs(percentile(sorted, 0.9)) };
}

/** A duration as people read it: `45 s`, `2 min 30 s`, `3 h 5 min`, `2 d 4 h`; `-` for none. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return '-';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return s % 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s / 60} min`;
  if (s < 86_400) {
    const m = Math.floor((s % 3600) / 60);
    return m ? `${Math.floor(s / 3600)} h ${m} min` : `${Math.floor(s / 3600)} h`;
  }
  const h = Math.floor((s % 86_400) / 3600);
  return h ? `${Math.floor(s / 86_400)} d ${h} h` : `${Math.floor(s / 86_400)} d`;
}
