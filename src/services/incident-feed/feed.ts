import type { Knex } from '@mikro-orm/postgresql';
import type { IncidentEventBody, IncidentEventType } from '../../domain/incident-events';
import { iso } from '../../db/timestamps';
import { toSnapshot, type IncidentRow } from '../incident/view';

/** An `incident_events` row as a consumer reads it. */
export interface FeedEvent {
  seq: string;
  id: string;
  organization_id: string;
  incident_id: string;
  type: IncidentEventType;
  incident: IncidentRow;
  actor: IncidentEventBody['actor'];
  data: Record<string, unknown>;
  created_at: Date | string;
}

/**
 * Takes a consumer's next events, oldest first, at most `limit`, and moves its position past
 * them, in the caller's transaction: what the consumer writes for them (its deliveries) commits
 * with the move, or neither does. One process at a time takes a consumer's events: another that
 * finds its position locked gets none (`SKIP LOCKED`) instead of waiting.
 *
 * Order is by (xid, seq) of the writing transaction, and only rows of transactions older than
 * every one still running are read (`pg_snapshot_xmin`): a row that commits after a later one can
 * then never fall behind the position. Per incident this is the order of its changes: the
 * store writes an incident's changes in transactions that follow each other.
 */
export async function takeFeedEvents(trx: Knex.Transaction, consumer: string, limit: number): Promise<FeedEvent[]> {
  const position = (await lockPosition(trx, consumer)) ?? (await startPosition(trx, consumer));
  if (!position) return [];
  const { rows } = (await trx.raw(
    `select seq::text as seq, xid::text as xid, id, organization_id, incident_id, type, incident, actor, data, created_at
     from incident_events
     where (xid, seq) > (?::xid8, ?::bigint) and xid < pg_snapshot_xmin(pg_current_snapshot())
     order by xid, seq
     limit ?`,
    [position.xid, position.seq, limit],
  )) as { rows: Array<FeedEvent & { xid: string }> };
  if (rows.length === 0) return [];
  const last = rows[rows.length - 1];
  await trx.raw(`update incident_event_consumers set position_xid = ?::xid8, position_seq = ?::bigint, updated_at = now() where name = ?`, [
    last.xid,
    last.seq,
    consumer,
  ]);
  return rows.map(({ xid: _xid, ...event }) => event);
}

type Position = { xid: string; seq: string };

/** The consumer's position, locked for this transaction; undefined when absent or held by another process. */
async function lockPosition(trx: Knex.Transaction, consumer: string): Promise<Position | undefined> {
  const { rows } = (await trx.raw(
    `select position_xid::text as xid, position_seq::text as seq from incident_event_consumers where name = ? for update skip locked`,
    [consumer],
  )) as { rows: Position[] };
  return rows[0];
}

/** A new consumer starts at the feed's beginning; undefined when another process holds it (or just created it). */
async function startPosition(trx: Knex.Transaction, consumer: string): Promise<Position | undefined> {
  // Held by another process: an insert would wait on its lock (a plain read does not).
  if (await trx('incident_event_consumers').where({ name: consumer }).first('name')) return undefined;
  const { rows } = (await trx.raw(`insert into incident_event_consumers (name) values (?) on conflict (name) do nothing returning name`, [consumer])) as {
    rows: unknown[];
  };
  return rows.length ? { xid: '0', seq: '0' } : undefined;
}

/** An event as receivers get it: the incident as the customer API v1 shows it. */
export function eventBody(event: FeedEvent): IncidentEventBody {
  return {
    id: event.id,
    type: event.type,
    created_at: iso(event.created_at),
    organization_id: event.organization_id,
    incident: toSnapshot(event.incident),
    actor: event.actor,
    data: event.data,
  };
}

/**
 * Events as a JSON recordset for a consumer's fan-out insert: `json_to_recordset(?::json) as
 * ${FEED_RECORDSET}` with `feedRecords(events)` as the parameter; `ord` keeps the feed's order
 * (each incident's), which the insert's `order by e.ord` turns into lane order.
 */
export const FEED_RECORDSET = 'e(ord int, id uuid, organization_id uuid, incident_id uuid, service_id uuid, type text, created_at timestamptz, body jsonb)';

/** The recordset's JSON: the events of an incident with a service when `withService`, every one otherwise. */
export function feedRecords(events: FeedEvent[], opts: { types?: readonly string[]; withService?: boolean } = {}): string {
  const rows = events
    .filter((e) => (!opts.types || opts.types.includes(e.type)) && (!opts.withService || e.incident.service_id))
    .map((e, ord) => ({
      ord,
      id: e.id,
      organization_id: e.organization_id,
      incident_id: e.incident_id,
      service_id: e.incident.service_id,
      type: e.type,
      created_at: e.created_at,
      body: eventBody(e),
    }));
  return JSON.stringify(rows);
}

/** How far behind a consumer is: events written that it has not taken (for `/api/status` and tests). */
export async function feedLag(k: Knex, consumer: string): Promise<number> {
  const { rows } = (await k.raw(
    `select count(*)::int as n from incident_events e
     where (e.xid, e.seq) > coalesce((select (position_xid, position_seq) from incident_event_consumers where name = ?), ('0'::xid8, 0::bigint))`,
    [consumer],
  )) as { rows: Array<{ n: number }> };
  return rows[0].n;
}
