import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { normaliseEmail } from './signup';

export interface ResetThrottleOptions {
  /** Reset emails sent to one address in the window: more requests are answered alike, unsent. */
  perAddress: number;
  /** Reset requests accepted from one client IP in the window: more are 429. */
  perIp: number;
  windowSeconds: number;
}

export const DEFAULT_RESET_THROTTLE: ResetThrottleOptions = { perAddress: 3, perIp: 20, windowSeconds: 60 * 60 };

/** Too many reset requests from this IP. */
export class ResetThrottled extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`too many password reset requests; retry in ${retryAfterSeconds} s`);
    this.name = 'ResetThrottled';
  }
}

/**
 * Keeps password reset links from becoming a way to flood someone's inbox (in memory, per API
 * process): a few emails per address an hour, and a cap per client IP. Over the address cap the
 * request is answered as any other (no hint whether the address has an account) and nothing is sent.
 */
export class ResetThrottle {
  private readonly address: RateLimiterMemory;
  private readonly ip: RateLimiterMemory;

  constructor(opts: ResetThrottleOptions = DEFAULT_RESET_THROTTLE) {
    this.address = new RateLimiterMemory({ keyPrefix: 'reset-address', points: opts.perAddress, duration: opts.windowSeconds });
    this.ip = new RateLimiterMemory({ keyPrefix: 'reset-ip', points: opts.perIp, duration: opts.windowSeconds });
  }

  /** Throws ResetThrottled when the IP is over its cap; else whether an email may go to `email`. */
  async take(email: string, ip: string): Promise<boolean> {
    try {
      await this.ip.consume(ip);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      throw new ResetThrottled(Math.max(1, Math.ceil(err.msBeforeNext / 1000)));
    }
    try {
      await this.address.consume(normaliseEmail(email));
      return true;
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      return false;
    }
  }
}
