import { boundedRetry, MAX_ATTEMPTS, MIN_ATTEMPT_MS, waitsBefore } from '../../src/domain/bounded-retry';

/** The longest the plan can take: every attempt timing out, and every wait between. */
const worstCase = (plan: { attempts: number; attemptTimeoutMs: number }) => plan.attempts * plan.attemptTimeoutMs + waitsBefore(plan.attempts);

describe('boundedRetry', () => {
  it('when the budget is ample, then the most attempts, each capped at 2 s', () => {
    expect(boundedRetry(60_000)).toEqual({ attempts: MAX_ATTEMPTS, attemptTimeoutMs: 2_000 });
  });

  it("when the budget is an update's 5 s, then four attempts of about 0.8 s with 1.75 s of waits", () => {
    expect(waitsBefore(4)).toBe(250 + 500 + 1000);
    expect(boundedRetry(5_000)).toEqual({ attempts: 4, attemptTimeoutMs: 812 });
  });

  it.each([400, 1_000, 2_345, 3_999, 5_000, 7_000, 20_000])('when the budget is %i ms, then the worst case ends within it', (budget) => {
    const plan = boundedRetry(budget)!;
    expect(plan.attemptTimeoutMs).toBeGreaterThanOrEqual(MIN_ATTEMPT_MS);
    expect(worstCase(plan)).toBeLessThanOrEqual(budget);
  });

  it('when the budget is shrinking, then attempts drop before any attempt gets too short', () => {
    expect(boundedRetry(1_000)).toEqual({ attempts: 2, attemptTimeoutMs: 375 });
    expect(boundedRetry(MIN_ATTEMPT_MS)).toEqual({ attempts: 1, attemptTimeoutMs: MIN_ATTEMPT_MS });
  });

  it.each([0, MIN_ATTEMPT_MS - 1, -5_000, Number.NaN])('when the budget is %d ms, then no attempt fits', (budget) => {
    expect(boundedRetry(budget)).toBeUndefined();
  });
});
