import type { Knex } from '@mikro-orm/postgresql';
import type { MikroORM } from '@mikro-orm/postgresql';

/** A query builder on a fresh entity-manager fork: one per use case, never shared. */
export const knexOf = (orm: MikroORM): Knex => orm.em.fork().getKnex();

/** True when a Postgres error is a unique-constraint violation. */
export const isUniqueViolation = (err: unknown): boolean =>
  typeof err === 'object' && err !== null && (err as { code?: string }).code === '23505';
