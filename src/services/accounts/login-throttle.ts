import { RateLimiterMemory, type RateLimiterRes } from 'rate-limiter-flexible';

/** Too many failed logins for this account or IP: the surface answers 429 with Retry-After. */
export class LoginThrottled extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`too many failed logins; retry in ${retryAfterSeconds} s`);
    this.name = 'LoginThrottled';
  }
}

export interface LoginThrottleOptions {
  /** Failed logins allowed per account in the window. */
  perAccount: number;
  /** Failed logins allowed per client IP in the window. */
  perIp: number;
  windowSeconds: number;
}

export const DEFAULT_LOGIN_THROTTLE: LoginThrottleOptions = { perAccount: 5, perIp: 20, windowSeconds: 15 * 60 };

/**
 * Counts failed logins per account (normalised email) and per IP, in memory (per API process).
 * Over either limit every attempt is refused with 429 and Retry-After, even with the right
 * password, until the window passes; a success resets the account's count.
 */
export class LoginThrottle {
  private readonly account: RateLimiterMemory;
  private readonly ip: RateLimiterMemory;

  constructor(private readonly opts: LoginThrottleOptions = DEFAULT_LOGIN_THROTTLE) {
    this.account = new RateLimiterMemory({ keyPrefix: 'login-account', points: opts.perAccount, duration: opts.windowSeconds });
    this.ip = new RateLimiterMemory({ keyPrefix: 'login-ip', points: opts.perIp, duration: opts.windowSeconds });
  }

  /** Throws LoginThrottled when the account or the IP has used up its failures. */
  async check(email: string, ip: string): Promise<void> {
    const [a, i] = await Promise.all([this.account.get(email), this.ip.get(ip)]);
    const over = [
      a && a.consumedPoints >= this.opts.perAccount ? a : undefined,
      i && i.consumedPoints >= this.opts.perIp ? i : undefined,
    ].filter((r): r is RateLimiterRes => r !== undefined);
    if (over.length === 0) return;
    const retryAfter = Math.max(1, Math.ceil(Math.max(...over.map((r) => r.msBeforeNext)) / 1000));
    throw new LoginThrottled(retryAfter);
  }

  async failed(email: string, ip: string): Promise<void> {
    // Rejections here only mean "now over the limit": check() answers that on the next attempt.
    await Promise.all([this.account.penalty(email, 1), this.ip.penalty(ip, 1)]);
  }

  async succeeded(email: string): Promise<void> {
    await this.account.delete(email);
  }
}
