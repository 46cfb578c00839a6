import type { Knex } from '@mikro-orm/postgresql';
import type { IncidentStatus } from '../../domain/incident-lifecycle';
import { APPLIED_EVENTS_WINDOW } from '../../contracts/workflows';

/** What a workflow run started for an existing incident resumes from, read from the projection. */
export interface RunSeed {
  status: IncidentStatus;
  seq: number;
  /** Alert events the incident's timeline shows applied, oldest first (the last APPLIED_EVENTS_WINDOW). */
  appliedEventIds: string[];
  /** The seq of its last reopen (0 if never): a sender's resolve accepted before it is stale. */
  reopenedAtSeq: number;
}

/**
 * The state an incident's earlier runs left, for a run that starts after they completed (a late
 * or redelivered event after close, a reopen): without it the new run would apply again events
 * the old ones applied. Undefined when the incident has no projection.
 */
export async function readRunSeed(k: Knex, incidentId: string): Promise<RunSeed | undefined> {
  const { rows } = (await k.raw(
    `select i.status, i.last_seq,
       coalesce((select array_agg(event_id::text order by seq) from (
         select event_id, seq from timeline_entries where incident_id = i.id and event_id is not null order by seq desc limit ?
       ) as recent), array[]::text[]) as applied,
       coalesce((select max(seq) from timeline_entries where incident_id = i.id and type = 'status_change' and to_status = 'TRIGGERED' and from_status in ('RESOLVED', 'CLOSED')), 0) as reopened_at
     from incidents i where i.id = ?`,
    [APPLIED_EVENTS_WINDOW, incidentId],
  )) as { rows: Array<{ status: IncidentStatus; last_seq: number; applied: string[]; reopened_at: number }> };
  const [row] = rows;
  return row && { status: row.status, seq: row.last_seq, appliedEventIds: row.applied, reopenedAtSeq: Number(row.reopened_at) };
}
