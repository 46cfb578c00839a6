import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/common';
import { timestampChanges, type IncidentStatus, type TransitionOperation } from '../src/domain/incident-lifecycle';
import { INCIDENT_COLUMNS, toSnapshot, type IncidentRow } from '../src/services/incident-view';
import type { Actor, IncidentSnapshot } from '../workflows/definitions';

export interface RecordTransitionInput {
  incidentId: string;
  seq: number;
  operation: TransitionOperation;
  from: IncidentStatus;
  to: IncidentStatus;
  actor: Actor;
  at: string;
}

/** A run of alerts that joined an incident: their timeline entries take firstSeq, firstSeq+1, … */
export interface RecordAlertsAttachedInput {
  incidentId: string;
  firstSeq: number;
  alerts: Array<{ eventId: string; title: string }>;
  at: string;
}

const PAST_TENSE: Record<TransitionOperation, string> = {
  acknowledge: 'Acknowledged',
  investigate: 'Investigation started',
  resolve: 'Resolved',
  close: 'Closed',
  reopen: 'Reopened',
  ack_timeout: 'Acknowledgement timed out',
};

/** Projection writes: idempotent (keyed by incident and sequence number), so retries are safe. */
export function createProjectionActivities({ orm }: { orm: MikroORM }) {
  const knex = () => orm.em.fork().getKnex();

  async function readIncident({ incidentId }: { incidentId: string }): Promise<IncidentSnapshot> {
    const row = await knex()<IncidentRow>('incidents').select(INCIDENT_COLUMNS).where({ id: incidentId }).first();
    if (!row) throw ApplicationFailure.nonRetryable(`incident ${incidentId} has no projection`, 'IncidentNotFound');
    return toSnapshot(row as unknown as IncidentRow);
  }

  /**
   * One statement, one round trip: the timeline entry and the incident row change together.
   * Both are keyed by (incident, seq), so a retried attempt changes nothing and returns the row.
   */
  async function recordTransition(input: RecordTransitionInput): Promise<IncidentSnapshot> {
    const at = new Date(input.at);
    const stamps = Object.entries(timestampChanges(input.operation, input.at)).map(([column, value]) => ({ column, value: value === null ? null : at }));
    const columns = INCIDENT_COLUMNS.map((c) => `"${c}"`).join(', ');
    const sql = `
      with entry as (
        insert into timeline_entries (id, incident_id, organization_id, seq, type, from_status, to_status, actor_type, actor_id, via, message, created_at)
        select ?, id, organization_id, ?, 'status_change', ?, ?, ?, ?, ?, ?, ? from incidents where id = ?
        on conflict (incident_id, seq) do nothing
      ), moved as (
        update incidents set status = ?, last_seq = ?, updated_at = ?${stamps.map((s) => `, "${s.column}" = ?`).join('')}
        where id = ? and last_seq < ?
        returning ${columns}
      )
      select ${columns} from moved
      union all
      select ${columns} from incidents where id = ? and not exists (select 1 from moved)`;
    const bindings = [
      randomUUID(), input.seq, input.from, input.to, input.actor.type, input.actor.id, input.actor.via,
      `${PAST_TENSE[input.operation]} (${input.from} → ${input.to})`, at, input.incidentId,
      input.to, input.seq, at, ...stamps.map((s) => s.value), input.incidentId, input.seq,
      input.incidentId,
    ];
    const { rows } = (await knex().raw(sql, bindings)) as { rows: IncidentRow[] };
    if (!rows[0]) throw ApplicationFailure.nonRetryable(`incident ${input.incidentId} has no projection`, 'IncidentNotFound');
    return toSnapshot(rows[0]);
  }

  /** The timeline entry of an alert that joined the incident; idempotent like the others. */
  async function recordAlertAttached(input: { incidentId: string; seq: number; eventId: string; title: string; at: string }): Promise<void> {
    const at = new Date(input.at);
    await knex().raw(
      `with entry as (
         insert into timeline_entries (id, incident_id, organization_id, seq, type, actor_type, via, message, created_at)
         select ?, id, organization_id, ?, 'alert_attached', 'system', 'ingest', ?, ? from incidents where id = ?
         on conflict (incident_id, seq) do nothing
       )
       update incidents set last_seq = ?, updated_at = ? where id = ? and last_seq < ?`,
      [randomUUID(), input.seq, `Alert attached: ${input.title}`.slice(0, 2000), at, input.incidentId, input.seq, at, input.incidentId, input.seq],
    );
  }

  /**
   * The timeline entries of a run of alerts that joined the incident, numbered firstSeq onwards,
   * and the incident's last_seq, in one statement; idempotent like the others.
   */
  async function recordAlertsAttached(input: RecordAlertsAttachedInput): Promise<void> {
    const at = new Date(input.at);
    const lastSeq = input.firstSeq + input.alerts.length - 1;
    const entries = input.alerts.map((alert, i) => ({ id: randomUUID(), seq: input.firstSeq + i, message: `Alert attached: ${alert.title}`.slice(0, 2000) }));
    await knex().raw(
      `with entry as (
         insert into timeline_entries (id, incident_id, organization_id, seq, type, actor_type, via, message, created_at)
         select e.id, i.id, i.organization_id, e.seq, 'alert_attached', 'system', 'ingest', e.message, ?
         from incidents i cross join json_to_recordset(?::json) as e(id uuid, seq int, message text)
         where i.id = ?
         on conflict (incident_id, seq) do nothing
       )
       update incidents set last_seq = ?, updated_at = ? where id = ? and last_seq < ?`,
      [at, JSON.stringify(entries), input.incidentId, lastSeq, at, input.incidentId, lastSeq],
    );
  }

  return { readIncident, recordTransition, recordAlertAttached, recordAlertsAttached };
}
