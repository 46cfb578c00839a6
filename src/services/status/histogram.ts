/**
 * Fixed-bucket latency histograms: every process counts requests into the same buckets, so the
 * counts of several processes (and minutes) add up, and quantiles are estimated from the sums.
 * Pure: no I/O.
 */

/** Upper bounds (ms, inclusive) of the buckets; a last, open bucket takes anything slower. */
export const BUCKET_BOUNDS_MS = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000] as const;

/**
 * The published latencies' bounds (src/services/status/latency-metrics.ts): the same buckets, then
 * up to 5 minutes, as an SMS delivery report or a late escalation can take tens of seconds (a
 * carrier fails over after 30 s) where a request taking 10 s is already a failure.
 */
export const LATENCY_BOUNDS_MS = [...BUCKET_BOUNDS_MS, 30_000, 60_000, 120_000, 300_000] as const;

/** A bucket layout: its upper bounds (ms), ascending; the open bucket is implied after the last. */
export type Bounds = readonly number[];

/** How the open bucket's bound is stored (an integer column, so no Infinity). */
export const OPEN_BUCKET_MS = 2_147_483_647;

/** Every bucket's stored bound, the open one last. */
export const storedBounds = (bounds: Bounds): readonly number[] => [...bounds, OPEN_BUCKET_MS];
export const STORED_BOUNDS_MS: readonly number[] = storedBounds(BUCKET_BOUNDS_MS);

/** Per bucket (index into the layout's stored bounds): how many durations, and their sum. */
export interface Buckets {
  counts: number[];
  sumsMs: number[];
}

export const emptyBuckets = (bounds: Bounds = BUCKET_BOUNDS_MS): Buckets => ({ counts: [...bounds, 0].map(() => 0), sumsMs: [...bounds, 0].map(() => 0) });

/** The index of the bucket a duration falls in. */
export function bucketIndex(ms: number, bounds: Bounds = BUCKET_BOUNDS_MS): number {
  const i = bounds.findIndex((bound) => ms <= bound);
  return i === -1 ? bounds.length : i;
}

/** Counts one duration. */
export function observe(b: Buckets, ms: number, bounds: Bounds = BUCKET_BOUNDS_MS): void {
  const i = bucketIndex(ms, bounds);
  b.counts[i] += 1;
  b.sumsMs[i] += ms;
}

/** Adds `from` into `into`. */
export function mergeInto(into: Buckets, from: Buckets): void {
  from.counts.forEach((n, i) => (into.counts[i] += n));
  from.sumsMs.forEach((ms, i) => (into.sumsMs[i] += ms));
}

export const totalCount = (b: Buckets): number => b.counts.reduce((a, n) => a + n, 0);

/** The mean duration, or null when nothing was counted. */
export function mean(b: Buckets): number | null {
  const n = totalCount(b);
  return n === 0 ? null : Math.round((b.sumsMs.reduce((a, ms) => a + ms, 0) / n) * 100) / 100;
}

/**
 * The q-quantile (0 < q ≤ 1) estimated as Prometheus' histogram_quantile does: find the bucket
 * holding the rank, interpolate linearly inside it. The open bucket answers its lower bound (we
 * cannot say how slow past it). Null when nothing was counted.
 */
export function quantile(b: Buckets, q: number, bounds: Bounds = BUCKET_BOUNDS_MS): number | null {
  const total = totalCount(b);
  if (total === 0) return null;
  const rank = q * total;
  let seen = 0;
  for (let i = 0; i < b.counts.length; i++) {
    const n = b.counts[i];
    if (n > 0 && seen + n >= rank) {
      if (i === bounds.length) return bounds[i - 1];
      const lower = i === 0 ? 0 : bounds[i - 1];
      const upper = bounds[i];
      return Math.round((lower + ((upper - lower) * (rank - seen)) / n) * 100) / 100;
    }
    seen += n;
  }
  return bounds[bounds.length - 1];
}
