/**
 * A responder's entries on an incident's timeline (docs/responding.md): a note, a snooze, people
 * added or the incident reassigned, incidents merged into it. Part of the incident store (the one
 * writer of `timeline_entries` and `incident_events`): the entry, the row's `last_seq` and its
 * feed event are one statement, at the seq the workflow reserved, keyed by the entry's id (the
 * workflow makes it), so a retried write finds its own entry and writes nothing twice.
 */
import type { Knex } from '@mikro-orm/postgresql';
import type { IncidentEventType } from '../../domain/incident-events';
import type { Actor } from '../../contracts/workflows';
import { actorJson, EVENT_INSERT } from './feed-sql';
import { INCIDENT_COLUMNS } from './view';

const COLUMNS = INCIDENT_COLUMNS.map((c) => `"${c}"`).join(', ');

/** The kinds of responder entries, as the timeline's `type` names them. */
export type ResponderEntryType = 'note' | 'snooze' | 'responders_added' | 'reassigned' | 'merged';

export interface ResponderEntry {
  incidentId: string;
  /** Made by the workflow (deterministic): the key a retry finds its entry by. */
  entryId: string;
  seq: number;
  type: ResponderEntryType;
  actor: Actor;
  message: string;
  data: Record<string, unknown>;
  /** The feed event the entry writes in the same statement. */
  eventType: IncidentEventType;
  at: string;
}

/**
 * Writes the entry at its seq, or finds it written; when its seq holds another entry (a lost
 * workflow task's write), it goes after everything written so far. Returns the seq it holds;
 * undefined when there is no such incident.
 */
export async function recordResponderEntry(k: Knex, input: ResponderEntry): Promise<{ seq: number } | undefined> {
  const existing = await seqOf(k, input.entryId);
  if (existing !== undefined) return { seq: existing };
  if (await insertEntry(k, input, input.seq)) return { seq: input.seq };
  const again = await seqOf(k, input.entryId);
  if (again !== undefined) return { seq: again };
  const { rows } = (await k.raw(
    `select greatest(coalesce((select max(seq) from timeline_entries where incident_id = ?), 0), (select last_seq from incidents where id = ?)) + 1 as seq`,
    [input.incidentId, input.incidentId],
  )) as { rows: Array<{ seq: number | null }> };
  const next = rows[0]?.seq;
  if (next === null || next === undefined) return undefined;
  return (await insertEntry(k, input, Number(next))) ? { seq: Number(next) } : undefined;
}

async function seqOf(k: Knex, entryId: string): Promise<number | undefined> {
  const row = (await k('timeline_entries').where({ id: entryId }).first('seq')) as { seq: number } | undefined;
  return row?.seq;
}

/** The entry, the row's last_seq and the feed event in one statement; says whether the entry went in. */
async function insertEntry(k: Knex, input: ResponderEntry, seq: number): Promise<boolean> {
  const at = new Date(input.at);
  const data = JSON.stringify(input.data);
  const { rows } = (await k.raw(
    `with entry as (
       insert into timeline_entries (id, incident_id, organization_id, seq, type, actor_type, actor_id, via, message, data, created_at)
       select ?, id, organization_id, ?, ?, ?, ?, ?, ?, ?::jsonb, ? from incidents where id = ?
       on conflict do nothing
       returning seq
     ), bumped as (
       update incidents set last_seq = greatest(last_seq, ?) where id = ? and exists (select 1 from entry)
       returning ${COLUMNS}
     ), responder_event as (
       ${EVENT_INSERT}
       select gen_random_uuid(), b.organization_id, b.id, ?, to_jsonb(b), ${actorJson('?::text', '?::uuid', '?::text')}, ?::jsonb, ? from bumped b
     )
     select count(*)::int as n from entry`,
    [
      input.entryId,
      seq,
      input.type,
      input.actor.type,
      input.actor.id,
      input.actor.via,
      input.message,
      data,
      at,
      input.incidentId,
      seq,
      input.incidentId,
      input.eventType,
      input.actor.type,
      input.actor.id,
      input.actor.id,
      input.actor.via,
      data,
      at,
    ],
  )) as { rows: Array<{ n: number }> };
  return rows[0].n === 1;
}
