import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { HttpError } from './customer-errors';

/**
 * A per-key token bucket (per ingestion source): a sender in a loop cannot crowd out the rest.
 * In memory, so per API process; the limit is what one process accepts for one source.
 */
export function createRateLimit(opts: { eventsPerSecond: number; burstSeconds?: number }) {
  const burst = opts.burstSeconds ?? 10;
  const limiter = new RateLimiterMemory({ points: opts.eventsPerSecond * burst, duration: burst });
  return async (key: string): Promise<void> => {
    try {
      await limiter.consume(key);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      const retryAfter = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
      throw new HttpError(429, `rate limit exceeded for this source; retry in ${retryAfter} s`, 'rate_limited', { 'Retry-After': String(retryAfter) });
    }
  };
}
