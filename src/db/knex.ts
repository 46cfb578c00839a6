import type { Knex } from '@mikro-orm/postgresql';
import type { MikroORM } from '@mikro-orm/postgresql';

/** A query builder on a fresh entity-manager fork: one per use case, never shared. */
export const knexOf = (orm: MikroORM): Knex => orm.em.fork().getKnex();

/** True when a Postgres error is a unique-constraint violation. */
export const isUniqueViolation = (err: unknown): boolean => typeof err === 'object' && err !== null && (err as { code?: string }).code === '23505';

/** Postgres errors that mean "not reachable now" (a caller should retry), not a bad request. */
export const isDatabaseUnavailable = (err: unknown): boolean => {
  const code = (err as { code?: string })?.code ?? '';
  const message = (err as Error)?.message ?? '';
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P01', '57P03', '08006', '08001'].includes(code) ||
    /Connection terminated|pool.*(ended|destroyed)|Unable to acquire a connection|timeout/i.test(message)
  );
};
