import { afterFailure, MAX_ATTEMPTS } from '../../../src/services/relay/retry-policy';

describe('afterFailure', () => {
  it('when a message keeps being refused, then it backs off 1 s, 2 s, 4 s, 8 s and is parked at the fifth failure', () => {
    const states = [];
    let attempts = 0;
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      const next = afterFailure(attempts, false);
      states.push(next);
      attempts = next.attempts;
    }
    expect(MAX_ATTEMPTS).toBe(5);
    expect(states).toEqual([
      { attempts: 1, retryInMs: 1000, park: false },
      { attempts: 2, retryInMs: 2000, park: false },
      { attempts: 3, retryInMs: 4000, park: false },
      { attempts: 4, retryInMs: 8000, park: false },
      { attempts: 5, retryInMs: null, park: true },
    ]);
  });

  it('when Temporal is away, then the failure counts no attempt, adds no backoff and parks nothing, however many came before', () => {
    expect(afterFailure(0, true)).toEqual({ attempts: 0, retryInMs: null, park: false });
    expect(afterFailure(MAX_ATTEMPTS - 1, true)).toEqual({ attempts: MAX_ATTEMPTS - 1, retryInMs: null, park: false });
  });

  it('when a message had already failed more than the limit (retried by hand after a policy change), then the next refusal parks it', () => {
    expect(afterFailure(MAX_ATTEMPTS + 3, false)).toMatchObject({ park: true });
  });
});
