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
});
