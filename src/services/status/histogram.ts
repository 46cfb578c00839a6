/**
 * Fixed-bucket latency histograms: every process counts requests into the same buckets, so the
 * counts of several processes (and minutes) add up, and quantiles are estimated from the sums.
 * Pure: no I/O.
 */

/** Upper bounds (ms, inclusive) of the buckets; a last, open bucket takes anything slower. */
export const BUCKET_BOUNDS_MS = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000] as const;

/** How the open bucket's bound is stored (an integer column, so no Infinity). */
export const OPEN_BUCKET_MS = 2_147_483_647;

/** Every bucket's stored bound, the open one last. */
export const STORED_BOUNDS_MS: readonly number[] = [...BUCKET_BOUNDS_MS, OPEN_BUCKET_MS];

/** Per bucket (index into STORED_BOUNDS_MS): how many requests, and the sum of their durations. */
export interface Buckets {
  counts: number[];
  sumsMs: number[];
}

export const emptyBuckets = (): Buckets => ({ counts: STORED_BOUNDS_MS.map(() => 0), sumsMs: STORED_BOUNDS_MS.map(() => 0) });

/** The index of the bucket a duration falls in. */
export function bucketIndex(ms: number): number {
  const i = BUCKET_BOUNDS_MS.findIndex((bound) => ms <= bound);
  return i === -1 ? BUCKET_BOUNDS_MS.length : i;
}

/** Counts one duration. */
export function observe(b: Buckets, ms: number): void {
  const i = bucketIndex(ms);
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
export function quantile(b: Buckets, q: number): number | null {
  const total = totalCount(b);
  if (total === 0) return null;
  const rank = q * total;
  let seen = 0;
  for (let i = 0; i < b.counts.length; i++) {
    const n = b.counts[i];
    if (n > 0 && seen + n >= rank) {
      if (i === BUCKET_BOUNDS_MS.length) return BUCKET_BOUNDS_MS[i - 1];
      const lower = i === 0 ? 0 : BUCKET_BOUNDS_MS[i - 1];
      const upper = BUCKET_BOUNDS_MS[i];
      return Math.round((lower + ((upper - lower) * (rank - seen)) / n) * 100) / 100;
    }
    seen += n;
  }
  return BUCKET_BOUNDS_MS[BUCKET_BOUNDS_MS.length - 1];
}
