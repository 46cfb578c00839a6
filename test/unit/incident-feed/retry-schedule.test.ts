import { MAX_RETRY_AFTER_MS, retryAfterMs } from '../../../src/domain/retry-after';
import { afterFailedAttempt, FEED_RETRY_SCHEDULE_MS } from '../../../src/services/incident-feed/delivery-queue';

describe("the feed's one retry schedule", () => {
  it('when attempts fail one after another, then they wait 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, and the eighth failure parks', () => {
    const waits = FEED_RETRY_SCHEDULE_MS.map((_, attempts) => afterFailedAttempt(attempts));
    expect(waits.map((w) => w.retryInMs)).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(waits.every((w) => !w.park)).toBe(true);
    expect(afterFailedAttempt(7)).toEqual({ retryInMs: null, park: true });
  });

  it('when a consumer knows the refusal is permanent, then the row parks at once, whatever the schedule has left', () => {
    expect(afterFailedAttempt(0, { permanent: true })).toEqual({ retryInMs: null, park: true });
    expect(afterFailedAttempt(0, { permanent: false })).toEqual({ retryInMs: 5_000, park: false });
  });

  it('when the receiver said Retry-After, then the next try waits at least that long, never less than the schedule, and a permanent refusal still parks', () => {
    expect(afterFailedAttempt(0, { retryAfterMs: 90_000 })).toEqual({ retryInMs: 90_000, park: false });
    expect(afterFailedAttempt(1, { retryAfterMs: 1_000 })).toEqual({ retryInMs: 300_000, park: false });
    expect(afterFailedAttempt(0, { permanent: true, retryAfterMs: 90_000 })).toEqual({ retryInMs: null, park: true });
    expect(afterFailedAttempt(7, { retryAfterMs: 90_000 })).toEqual({ retryInMs: null, park: true });
  });
});

describe('Retry-After', () => {
  const now = new Date('2026-11-29T03:00:00Z');

  it('when it is delay-seconds (whole or, as Discord sends in its body, fractional), then it is that many milliseconds', () => {
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs(' 0.25 ', now)).toBe(250);
    expect(retryAfterMs(['7', '9'], now)).toBe(7_000);
  });

  it('when it is an HTTP-date, then it is the time until then, and a date in the past is no wait', () => {
    expect(retryAfterMs('Sun, 29 Nov 2026 03:01:30 GMT', now)).toBe(90_000);
    expect(retryAfterMs('Sun, 29 Nov 2026 02:00:00 GMT', now)).toBe(0);
  });

  it('when it asks for more than an hour, then the wait is capped at an hour; when it is absent or nonsense, then there is none', () => {
    expect(retryAfterMs('86400', now)).toBe(MAX_RETRY_AFTER_MS);
    for (const bad of [undefined, '', 'soon', '-5', '1e9', 'x'.repeat(10_000)]) expect(retryAfterMs(bad, now)).toBeNull();
  });
});
