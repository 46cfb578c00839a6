import { emptyBuckets, LATENCY_BOUNDS_MS, observe, quantile, totalCount } from '../../../src/services/status/histogram';
import { LatencyRecorder, observePageDelivery, processLatencyMetrics, quantilesOf } from '../../../src/services/status/latency-metrics';
import { MinuteRecorder } from '../../../src/services/status/minute-buckets';
import { pageClaimed } from '../../../src/services/paging/page-latency';
import type { SendPageInput } from '../../../src/services/paging';

const filled = (...ms: number[]) => {
  const b = emptyBuckets(LATENCY_BOUNDS_MS);
  for (const d of ms) observe(b, d, LATENCY_BOUNDS_MS);
  return b;
};

describe('published latency buckets', () => {
  it('when latencies pass the request buckets’ 10 s, then they still fall in bounded buckets up to 5 min, and only past that in the open one', () => {
    const b = filled(20_000, 45_000, 400_000);
    expect(b.counts).toHaveLength(LATENCY_BOUNDS_MS.length + 1);
    expect(b.counts[LATENCY_BOUNDS_MS.indexOf(30_000)]).toBe(1);
    expect(b.counts[LATENCY_BOUNDS_MS.indexOf(60_000)]).toBe(1);
    expect(b.counts[LATENCY_BOUNDS_MS.length]).toBe(1);
  });

  it('when every page took 20 s, then p50 is interpolated halfway through (10 s, 30 s] and p99 near its top', () => {
    const b = filled(...Array.from({ length: 100 }, () => 20_000));
    expect(quantilesOf(b)).toEqual({ p50: 20, p99: 29.8 });
  });

  it('when the rank falls in a bucket, then the estimate moves linearly with the rank’s place among its counts', () => {
    // 50 pages in (0, 5] ms and 50 in (1, 2.5] s: p50 is the top of the first bucket, p99 98 % through the second.
    const b = filled(...Array.from({ length: 50 }, () => 3), ...Array.from({ length: 50 }, () => 2000));
    expect(quantile(b, 0.5, LATENCY_BOUNDS_MS)).toBe(5);
    expect(quantile(b, 0.99, LATENCY_BOUNDS_MS)).toBe(1000 + 1500 * (49 / 50));
    expect(quantilesOf(b)).toEqual({ p50: 0.005, p99: 2.47 });
  });

  it('when nothing was counted, then p50 and p99 are null', () => {
    expect(quantilesOf(emptyBuckets(LATENCY_BOUNDS_MS))).toEqual({ p50: null, p99: null });
  });

  it('when only the open bucket holds the rank, then the answer is the last bound, 5 min', () => {
    expect(quantilesOf(filled(900_000))).toEqual({ p50: 300, p99: 300 });
  });
});

describe('a process’s latency recorder', () => {
  it('when latencies of several series come in, then a drain hands one entry per series and minute, labels included', () => {
    const r = new LatencyRecorder();
    const minute = Date.UTC(2026, 0, 1, 12, 0);
    r.observe('alert_to_first_page', 1.2, undefined, minute + 1_000);
    r.observe('alert_to_first_page', 0.4, undefined, minute + 2_000);
    r.observe('page_delivery', 3, { channel: 'sms', carrier: 'twilio' }, minute + 3_000);
    r.observe('page_delivery', 0.2, { channel: 'email', carrier: 'smtp' }, minute + 61_000);
    const drained = r.drain();
    expect(drained.map((e) => [e.metric, e.channel, e.carrier, e.minute, totalCount(e.buckets)])).toEqual([
      ['alert_to_first_page', '', '', minute, 2],
      ['page_delivery', 'sms', 'twilio', minute, 1],
      ['page_delivery', 'email', 'smtp', minute + 60_000, 1],
    ]);
    expect(drained[0].buckets.sumsMs.reduce((a, n) => a + n, 0)).toBeCloseTo(1600);
    expect(r.drain()).toEqual([]);
  });

  it('when a latency is negative (two hosts’ clocks) it counts as 0, and one that is not a number is dropped', () => {
    const r = new LatencyRecorder();
    r.observe('escalation_lateness', -2);
    r.observe('escalation_lateness', Number.NaN);
    const [entry] = r.drain();
    expect(totalCount(entry.buckets)).toBe(1);
    expect(entry.buckets.counts[0]).toBe(1);
    expect(entry.buckets.sumsMs[0]).toBe(0);
  });

  it('when a failed flush hands its counts back, then the next drain has them with the new ones, whatever order the labels were written in', () => {
    const r = new MinuteRecorder<{ a: string; b: string }>(LATENCY_BOUNDS_MS);
    const at = Date.UTC(2026, 0, 1, 12, 0, 30);
    r.count({ a: '1', b: '2' }, 7, at);
    const taken = r.drain();
    r.count({ b: '2', a: '1' }, 8, at);
    r.restore(taken);
    const drained = r.drain();
    expect(drained).toHaveLength(1);
    expect(totalCount(drained[0].buckets)).toBe(2);
  });

  it('when observePageDelivery is called, then the process recorder holds a page_delivery observation with its channel and carrier', () => {
    processLatencyMetrics.drain();
    observePageDelivery('voice', 'vonage', 4.5);
    expect(processLatencyMetrics.drain().map((e) => [e.metric, e.channel, e.carrier, totalCount(e.buckets)])).toEqual([
      ['page_delivery', 'voice', 'vonage', 1],
    ]);
  });
});

describe('escalation lateness at the claim', () => {
  const input = (over: Partial<SendPageInput> = {}): SendPageInput => ({
    incidentId: 'i',
    notificationId: 'n',
    seq: 3,
    step: 2,
    job: { userId: 'u', channel: 'email', address: 'a@b.test', contactMethodId: null } as unknown as SendPageInput['job'],
    ...over,
  });
  const lateness = () =>
    processLatencyMetrics
      .drain()
      .filter((e) => e.metric === 'escalation_lateness')
      .map((e) => e.buckets.sumsMs.reduce((a, n) => a + n, 0));

  beforeEach(() => processLatencyMetrics.drain());

  it('when a step’s first attempt is claimed 1.5 s after it fell due, then 1.5 s is observed and the claim time returned', () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 10);
    expect(pageClaimed(input({ dueAt: new Date(now - 1500).toISOString() }), { attempts: 1, unknownOutcomeRetries: 0 }, now)).toBe(now);
    expect(lateness()).toEqual([1500]);
  });

  it('when the claim comes before the page was due (clocks), then it counts as 0', () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 10);
    pageClaimed(input({ dueAt: new Date(now + 800).toISOString() }), { attempts: 1, unknownOutcomeRetries: 0 }, now);
    expect(lateness()).toEqual([0]);
  });

  it('when the page is a retry, a requested page, or from a run without dueAt, then nothing is observed', () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 10);
    const dueAt = new Date(now - 1000).toISOString();
    pageClaimed(input({ dueAt }), { attempts: 2, unknownOutcomeRetries: 1 }, now);
    pageClaimed(input({ dueAt, requested: true }), { attempts: 1, unknownOutcomeRetries: 0 }, now);
    pageClaimed(input(), { attempts: 1, unknownOutcomeRetries: 0 }, now);
    expect(lateness()).toEqual([]);
  });
});
