import {
  BUCKET_BOUNDS_MS,
  bucketIndex,
  emptyBuckets,
  mean,
  mergeInto,
  observe,
  quantile,
  STORED_BOUNDS_MS,
  totalCount,
} from '../../../src/services/status/histogram';
import { RequestRecorder } from '../../../src/services/status/request-metrics';
import { summarize } from '../../../src/services/status/response-times';

const filled = (...ms: number[]) => {
  const b = emptyBuckets();
  for (const d of ms) observe(b, d);
  return b;
};

describe('latency buckets', () => {
  it('when a duration is on a bound, then it counts in that bound’s bucket; past the last bound, in the open one', () => {
    expect(bucketIndex(0)).toBe(0);
    expect(bucketIndex(5)).toBe(0);
    expect(bucketIndex(5.01)).toBe(1);
    expect(bucketIndex(10_000)).toBe(BUCKET_BOUNDS_MS.length - 1);
    expect(bucketIndex(60_000)).toBe(BUCKET_BOUNDS_MS.length);
    expect(STORED_BOUNDS_MS).toHaveLength(BUCKET_BOUNDS_MS.length + 1);
  });

  it('when nothing was counted, then every quantile and the mean are null', () => {
    expect(quantile(emptyBuckets(), 0.5)).toBeNull();
    expect(summarize(emptyBuckets())).toEqual({ count: 0, p50_ms: null, p95_ms: null, p99_ms: null, mean_ms: null });
  });

  it('when quantiles are estimated, then they interpolate inside the bucket holding the rank, like histogram_quantile', () => {
    // 100 requests, all in (10, 25]: the median is halfway through that bucket.
    const b = filled(...Array.from({ length: 100 }, () => 20));
    expect(quantile(b, 0.5)).toBe(17.5);
    expect(quantile(b, 1)).toBe(25);
    expect(mean(b)).toBe(20);
  });

  it('when requests are spread out, then p50 ≤ p95 ≤ p99 and each lies in its request’s bucket', () => {
    const b = filled(...Array.from({ length: 90 }, () => 3), ...Array.from({ length: 9 }, () => 200), 4000);
    const s = summarize(b);
    expect(s.count).toBe(100);
    expect(s.p50_ms!).toBeLessThanOrEqual(5);
    expect(s.p95_ms!).toBeGreaterThan(100);
    expect(s.p95_ms!).toBeLessThanOrEqual(250);
    expect(s.p99_ms!).toBeGreaterThanOrEqual(s.p95_ms!);
  });

  it('when only the open bucket holds the rank, then the answer is the last bound (we cannot say how slow)', () => {
    expect(quantile(filled(99_000), 0.99)).toBe(10_000);
  });

  it('when two processes’ buckets merge, then counts and sums add and the quantiles are those of all requests together', () => {
    const a = filled(3, 3, 3);
    const b = filled(300, 300);
    mergeInto(a, b);
    expect(totalCount(a)).toBe(5);
    expect(mean(a)).toBe(121.8);
    expect(summarize(a)).toEqual(summarize(filled(3, 3, 3, 300, 300)));
  });
});

describe('a process’s request recorder', () => {
  it('when requests end in two minutes, then a drain hands one entry per surface and minute, and the next drain is empty', () => {
    const r = new RequestRecorder();
    const minute = Date.UTC(2026, 0, 1, 12, 0);
    r.observe('app', 4, minute + 1_000);
    r.observe('app', 40, minute + 59_999);
    r.observe('app', 4, minute + 60_000);
    r.observe('ingest', 4, minute + 2_000);
    const drained = r.drain();
    expect(drained.map((e) => [e.surface, e.minute, totalCount(e.buckets)])).toEqual([
      ['app', minute, 2],
      ['app', minute + 60_000, 1],
      ['ingest', minute, 1],
    ]);
    expect(r.drain()).toEqual([]);
  });

  it('when a failed flush hands its counts back, then the next drain has them together with the new ones', () => {
    const r = new RequestRecorder();
    const at = Date.UTC(2026, 0, 1, 12, 0, 30);
    r.observe('api-key', 7, at);
    const taken = r.drain();
    r.observe('api-key', 8, at);
    r.restore(taken);
    const [entry] = r.drain();
    expect(totalCount(entry.buckets)).toBe(2);
  });
});
