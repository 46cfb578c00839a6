import type { Context } from 'koa';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { HttpError } from './customer-errors';

/** A per-key token bucket: `perSecond` sustained, a `burstSeconds` burst; in memory, so per API process. */
function limiterOf(perSecond: number, burstSeconds = 10) {
  return new RateLimiterMemory({ points: perSecond * burstSeconds, duration: burstSeconds });
}

const retryAfterOf = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));

/**
 * A per-key limit (per ingestion source): a sender in a loop cannot crowd out the rest. `take`
 * counts a request's first event before it is read (over the limit: 429); `chargeEvents` counts
 * the rest of a batch payload once it was accepted, so the limit is on events, while a big batch
 * (an Alertmanager group) is never refused half-way: it is stored whole, and the source's next
 * requests wait.
 */
export function createRateLimit(opts: { eventsPerSecond: number; burstSeconds?: number }) {
  const limiter = limiterOf(opts.eventsPerSecond, opts.burstSeconds);
  return {
    async take(key: string): Promise<void> {
      try {
        await limiter.consume(key);
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        const retryAfter = retryAfterOf(err);
        throw new HttpError(429, `rate limit exceeded for this source; retry in ${retryAfter} s`, 'rate_limited', { 'Retry-After': String(retryAfter) });
      }
    },
    chargeEvents: (key: string, events: number) => chargeEvents(limiter, key, events),
  };
}

/** Counts a request's events beyond the first, which `take` already counted; never refuses. */
async function chargeEvents(limiter: RateLimiterMemory, key: string, events: number): Promise<void> {
  if (events > 1) await limiter.penalty(key, events - 1);
}

/**
 * The same limiter, saying where a caller stands on every answer: `X-RateLimit-Limit`,
 * `-Remaining` and `-Reset` (Unix seconds when the window refills); over it, 429 with
 * `Retry-After`. `what` names the key in the message (`this API key`).
 */
export function createHeaderedRateLimit(opts: { perSecond: number; burstSeconds?: number; what: string }) {
  const limiter = limiterOf(opts.perSecond, opts.burstSeconds);
  const limit = opts.perSecond * (opts.burstSeconds ?? 10);
  const take = async (ctx: Context, key: string): Promise<void> => {
    const headers = (res: RateLimiterRes) => ({
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': String(Math.max(0, res.remainingPoints)),
      'X-RateLimit-Reset': String(Math.ceil((Date.now() + res.msBeforeNext) / 1000)),
    });
    try {
      ctx.set(headers(await limiter.consume(key)));
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      const retryAfter = retryAfterOf(err);
      throw new HttpError(429, `rate limit exceeded for ${opts.what}; retry in ${retryAfter} s`, 'rate_limited', {
        ...headers(err),
        'Retry-After': String(retryAfter),
      });
    }
  };
  return Object.assign(take, { chargeEvents: (key: string, events: number) => chargeEvents(limiter, key, events) });
}
