import type { Knex } from '@mikro-orm/postgresql';
import type { MikroORM } from '@mikro-orm/postgresql';

/** A query builder on a fresh entity-manager fork: one per use case, never shared. */
export const knexOf = (orm: MikroORM): Knex => orm.em.fork().getKnex();

/** True when a Postgres error is a unique-constraint violation. */
export const isUniqueViolation = (err: unknown): boolean => typeof err === 'object' && err !== null && (err as { code?: string }).code === '23505';

/**
 * "pool", then later "ended" or "destroyed" (a pool closed under the caller), by index: the regex
 * `pool.*(ended|destroyed)` took quadratic time on a message repeating "pool" (a Postgres error can
 * quote what a request sent), and no lint rule sees that (docs/security.md, "Hostile input").
 */
const mentionsClosedPool = (lower: string): boolean => {
  const at = lower.indexOf('pool');
  return at >= 0 && (lower.includes('ended', at + 4) || lower.includes('destroyed', at + 4));
};

/** Postgres errors that mean "not reachable now" (a caller should retry), not a bad request. */
export const isDatabaseUnavailable = (err: unknown): boolean => {
  const code = (err as { code?: string })?.code ?? '';
  const message = String((err as Error)?.message ?? '');
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P01', '57P03', '08006', '08001'].includes(code) ||
    /Connection terminated|Unable to acquire a connection|timeout/i.test(message) ||
    mentionsClosedPool(message.toLowerCase())
  );
};
