import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import { invalid, notFound } from '../errors';

/**
 * The outbox as operators see it (`klaxon outbox`, `/api/status`): how much waits, how long the
 * oldest has waited, and the parked messages (dead letters), which `retry` hands back to the relay.
 */

/** How the ingestion outbox is doing: undelivered messages the relay still tries, and parked ones. */
export interface OutboxHealth {
  /** Undelivered, not parked (including messages backing off after a failure). */
  pending: number;
  /** Age of the oldest pending message; null when none is pending. */
  oldest_pending_age_seconds: number | null;
  /** Parked: no longer delivered until retried. */
  parked: number;
}

/** A parked message, as listed. */
export interface ParkedMessage {
  id: string;
  incident_id: string;
  kind: string;
  attempts: number;
  last_error: string | null;
  parked_at: string;
}

/** Pending and parked counts, and the oldest pending message's age: one query on the partial indexes. */
export async function outboxHealth(orm: MikroORM): Promise<OutboxHealth> {
  const { rows } = await knexOf(orm).raw(`
    select (select count(*) from ingest_outbox where delivered_at is null and parked_at is null)::int as pending,
           (select extract(epoch from now() - min(created_at)) from ingest_outbox where delivered_at is null and parked_at is null)::float8 as oldest,
           (select count(*) from ingest_outbox where parked_at is not null and delivered_at is null)::int as parked`);
  const [{ pending, oldest, parked }] = rows as Array<{ pending: number; oldest: number | null; parked: number }>;
  return { pending, oldest_pending_age_seconds: oldest === null ? null : Math.max(0, Math.floor(oldest)), parked };
}

/** Parked messages, oldest first, at most `limit`. */
export async function listParked(orm: MikroORM, { limit }: { limit: number }): Promise<ParkedMessage[]> {
  const rows = await knexOf(orm)('ingest_outbox')
    .select('id', 'incident_id', 'kind', 'attempts', 'last_error', 'parked_at')
    .whereNotNull('parked_at')
    .whereNull('delivered_at')
    .orderBy('seq')
    .limit(limit);
  return rows.map((row) => ({ ...row, parked_at: new Date(row.parked_at).toISOString() }));
}

/** The state a retried message starts again from: due at once, no failures counted. */
const UNPARKED = { parked_at: null, attempts: 0, next_attempt_at: null };

/**
 * Hands one parked message back to the relay (its sweep takes it within a second). An unknown
 * id, or one that is not parked, is an error and changes nothing.
 */
export async function retryParked(orm: MikroORM, id: string): Promise<{ retried: string[] }> {
  const knex = knexOf(orm);
  const retried: Array<{ id: string }> = await knex('ingest_outbox').where({ id }).whereNotNull('parked_at').whereNull('delivered_at').update(UNPARKED, ['id']);
  if (retried.length) return { retried: [id] };
  const row = await knex('ingest_outbox').select('delivered_at').where({ id }).first();
  if (!row) throw notFound(`no outbox message ${id}`);
  throw invalid(`outbox message ${id} is not parked: it is ${row.delivered_at ? 'delivered' : 'pending (the relay still tries it)'}`);
}

/** Hands every parked message back to the relay. */
export async function retryAllParked(orm: MikroORM): Promise<{ retried: string[] }> {
  const retried: Array<{ id: string }> = await knexOf(orm)('ingest_outbox').whereNotNull('parked_at').whereNull('delivered_at').update(UNPARKED, ['id']);
  return { retried: retried.map((r) => r.id) };
}
