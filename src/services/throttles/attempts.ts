import type { Knex } from '@mikro-orm/postgresql';
import { throttleKeyOf } from '../../domain/throttle-key';
import type { AttemptLimits } from './limits';
import { Counter, Throttled } from './counter';

/** One attempt at a secret, reserved before the secret is checked; unless told otherwise it counts as a failure. */
export interface Attempt {
  /** The secret was right: the account's count starts again, and the IP gets its point back. */
  succeeded(): Promise<void>;
  /** Neither right nor wrong yet (a right password still waiting for its second factor): both points go back. */
  uncounted(): Promise<void>;
}

/**
 * Failed attempts at a secret (a password, a TOTP or recovery code) per account and per client
 * IP. An attempt is reserved before the secret is checked, so however many requests arrive at
 * once, on however many API processes, no more secrets are checked than the limits allow; past
 * either limit every attempt is refused (429), the right secret too, until the window ends.
 */
export class AttemptThrottle {
  private readonly account: Counter;
  private readonly ip: Counter;

  constructor(
    knex: Knex,
    name: string,
    limits: AttemptLimits,
    private readonly refusal: (retryAfterSeconds: number) => string,
  ) {
    this.account = new Counter(knex, `${name}-account`, limits.perAccount, limits.windowSeconds);
    this.ip = new Counter(knex, `${name}-ip`, limits.perIp, limits.windowSeconds);
  }

  /** Reserves one attempt for `account` from `clientIp` (counted under its throttle key: an IPv6 client's /64); throws Throttled when either has none left. */
  async reserve(account: string, clientIp: string): Promise<Attempt> {
    const ip = throttleKeyOf(clientIp);
    // Reads first: what is already over its limit is refused without a write. Only the atomic
    // takes below let an attempt through; the reads merely spare a flood the row locks.
    const spent = (await Promise.all([this.ip.spent(ip), this.account.spent(account)])).filter((s) => s !== null);
    if (spent.length) throw this.refused(Math.max(...spent));
    const ipWait = await this.ip.take(ip);
    if (ipWait !== null) {
      // A refusal is not a failure: the point goes back, so a flood of refused requests (some
      // over only because of others still in flight) leaves the IP's count at its failures.
      await this.ip.giveBack(ip);
      throw this.refused(ipWait);
    }
    const accountWait = await this.account.take(account);
    if (accountWait !== null) {
      // The IP's point goes back (it is never reset, so that is safe). The account's stays: it
      // is past its limit until the window ends anyway, and a point given back after a
      // concurrent success reset the count would leave it below zero, i.e. extra attempts.
      await this.ip.giveBack(ip);
      throw this.refused(accountWait);
    }
    return {
      succeeded: async () => {
        await this.account.reset(account);
        await this.ip.giveBack(ip);
      },
      uncounted: async () => {
        await this.account.giveBack(account);
        await this.ip.giveBack(ip);
      },
    };
  }

  private refused(retryAfterSeconds: number): Throttled {
    return new Throttled(retryAfterSeconds, this.refusal(retryAfterSeconds));
  }
}
