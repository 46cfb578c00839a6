import { createHash } from 'node:crypto';
import type { Knex } from '@mikro-orm/postgresql';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';

/** The table every counter shares, keyed `<counter name>:<sha256 of the subject>` (created by a migration). */
export const THROTTLE_TABLE = 'throttle_counts';

/** Over a throttle's limit: every surface answers 429 `rate_limited` with `Retry-After`. */
export class Throttled extends Error {
  readonly status = 429;
  readonly code = 'rate_limited';

  constructor(
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super(message);
    this.name = 'Throttled';
  }

  get headers(): Record<string, string> {
    return { 'Retry-After': String(this.retryAfterSeconds) };
  }
}

const secondsOf = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));

/**
 * Hashed: keys stay short whatever the client typed (an email field may hold 320 characters, or
 * someone's password), and the table never holds that text.
 */
const digest = (subject: string) => createHash('sha256').update(subject).digest('hex');

/**
 * One limit (`points` per `windowSeconds` per subject) counted in Postgres by
 * rate-limiter-flexible: each take is one atomic upsert, so concurrent requests and several API
 * processes share one count. The window is fixed from the first point; expired rows are purged
 * by the hourly retention run, not by a timer in every process.
 */
export class Counter {
  private readonly limiter: RateLimiterPostgres;

  constructor(
    knex: Knex,
    readonly name: string,
    readonly points: number,
    readonly windowSeconds: number,
  ) {
    this.limiter = new RateLimiterPostgres({
      // Connections come from the ORM's pool (acquired per query, released after): no second pool per process.
      storeClient: knex,
      storeType: 'knex',
      tableName: THROTTLE_TABLE,
      tableCreated: true,
      clearExpiredByTimeout: false,
      keyPrefix: name,
      points,
      duration: windowSeconds,
    });
  }

  /**
   * Answers the seconds until the window ends when the subject has used every point, else null.
   * A read: callers refuse what is already over without writing, so a flood on one subject does
   * not queue on its row's lock; only `take` lets anything through.
   */
  async spent(subject: string): Promise<number | null> {
    const res = await this.limiter.get(digest(subject));
    return res && res.consumedPoints >= this.points ? secondsOf(res) : null;
  }

  /** Counts one point, atomically; answers null while within the limit, else the seconds until the window ends (the point stays counted). */
  async take(subject: string): Promise<number | null> {
    try {
      await this.limiter.consume(digest(subject));
      return null;
    } catch (err) {
      if (err instanceof RateLimiterRes) return secondsOf(err);
      throw err;
    }
  }

  /** Takes one point back (an attempt that turned out not to count). */
  async giveBack(subject: string): Promise<void> {
    await this.limiter.reward(digest(subject), 1);
  }

  /** Forgets the subject's count: its next point opens a new window. */
  async reset(subject: string): Promise<void> {
    await this.limiter.delete(digest(subject));
  }
}
