/**
 * The one writer of `incidents` and `timeline_entries`. Incidents are opened here (one from the
 * API, a batch from ingestion), and every later change (a status move, alerts attached, a page
 * sent) writes its timeline entry and the row's `last_seq` together, keyed by (incident, seq):
 * the workflow reserves each seq, so a retried write finds its own entry and changes nothing.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/postgresql';
import { timestampChanges, type IncidentStatus, type TransitionOperation } from '../../domain/incident-lifecycle';
import type { Severity } from '../../domain/severity';
import type { Actor } from '../../../workflows/definitions';
import { INCIDENT_COLUMNS, type IncidentRow } from './view';

/** A new incident: what it says, who owns it, who opened it. Numbered per workspace on insert. */
export interface IncidentOpening {
  id: string;
  organizationId: string;
  serviceId: string | null;
  owningTeamId: string;
  title: string;
  description: string | null;
  severity: Severity;
  dedupKey: string | null;
  alertCount: number;
  actor: Actor;
  /** Said on the `created` entry after "opened", e.g. "an alert"; null when a person opened it. */
  openedBy: string | null;
}

/** What an ingestion batch changes: incidents it opens, and alerts it added to open ones. */
export interface IncidentBatch {
  opened: IncidentOpening[];
  alertsAdded: Array<{ incidentId: string; count: number }>;
}

const json = (rows: unknown) => JSON.stringify(rows);
const COLUMNS = INCIDENT_COLUMNS.map((c) => `"${c}"`).join(', ');
/** Timeline messages are capped: a sender's title can be as long as it likes. */
const MESSAGE_LIMIT = 2000;

/** Opens one incident (its row and `created` entry): the API's way in. */
export async function openIncident(trx: Knex.Transaction, opening: IncidentOpening, now = new Date()): Promise<IncidentRow> {
  const [row] = await storeIncidentBatch(trx, { opened: [opening], alertsAdded: [] }, now);
  return row;
}

/**
 * Opens a batch's incidents, numbered per workspace in the order given, with their `created`
 * entries, and counts alerts added to open ones: one statement however large the batch.
 * Returns the opened rows.
 */
export async function storeIncidentBatch(trx: Knex.Transaction, batch: IncidentBatch, now = new Date()): Promise<IncidentRow[]> {
  if (!batch.opened.length && !batch.alertsAdded.length) return [];
  const orgIds = [...new Set(batch.opened.map((o) => o.organizationId))].sort();
  // Several workspaces in one batch: lock their rows in one order first, so batches cannot deadlock.
  if (orgIds.length > 1) await trx.raw(`select id from organizations where id in (${orgIds.map(() => '?').join(', ')}) order by id for update`, orgIds);
  const openings = batch.opened.map((o, ord) => ({
    ord,
    id: o.id,
    entry_id: randomUUID(),
    organization_id: o.organizationId,
    service_id: o.serviceId,
    owning_team_id: o.owningTeamId,
    title: o.title,
    description: o.description,
    severity: o.severity,
    dedup_key: o.dedupKey,
    alert_count: o.alertCount,
    actor_type: o.actor.type,
    actor_id: o.actor.id,
    via: o.actor.via,
    opened_by: o.openedBy,
  }));
  const { rows } = (await trx.raw(OPEN_SQL, {
    openings: json(openings),
    added: json(batch.alertsAdded.map((a) => ({ id: a.incidentId, n: a.count }))),
    addedIds: `{${batch.alertsAdded.map((a) => a.incidentId).join(',')}}`,
    now,
  })) as { rows: IncidentRow[] };
  return rows;
}

const OPEN_SQL = `
with openings as (
  select r.*, row_number() over (partition by r.organization_id order by r.ord) as k, count(*) over (partition by r.organization_id) as n
  from json_to_recordset(:openings::json) as r(ord int, id uuid, entry_id uuid, organization_id uuid, service_id uuid, owning_team_id uuid, title text, description text, severity text, dedup_key text, alert_count int, actor_type text, actor_id uuid, via text, opened_by text)
), numbered as (
  update organizations o set incident_seq = o.incident_seq + c.n
  from (select organization_id, count(*)::int as n from openings group by organization_id) as c
  where o.id = c.organization_id
  returning o.id, o.incident_seq
), new_incidents as (
  insert into incidents (id, organization_id, number, service_id, owning_team_id, title, description, severity, status, dedup_key, alert_count, last_seq, created_at, updated_at)
  select op.id, op.organization_id, nb.incident_seq - op.n + op.k, op.service_id, op.owning_team_id, op.title, op.description, op.severity, 'TRIGGERED', op.dedup_key, op.alert_count, 1, :now, :now
  from openings op join numbered nb on nb.id = op.organization_id
  returning ${COLUMNS}
), created_entries as (
  insert into timeline_entries (id, incident_id, organization_id, seq, type, to_status, actor_type, actor_id, via, message, created_at)
  select op.entry_id, ni.id, ni.organization_id, 1, 'created', 'TRIGGERED', op.actor_type, op.actor_id, op.via,
         'Incident #' || ni.number || ' opened' || coalesce(' by ' || op.opened_by, '') || ': ' || op.title, :now
  from new_incidents ni join openings op on op.id = ni.id
), added as (
  update incidents i set alert_count = i.alert_count + v.n, updated_at = :now
  from json_to_recordset(:added::json) as v(id uuid, n int)
  -- The array (its length known to the planner) makes this a primary-key lookup, never a scan.
  where i.id = any(:addedIds::uuid[]) and i.id = v.id
)
select ${COLUMNS} from new_incidents`;

export interface TransitionEntry {
  incidentId: string;
  seq: number;
  operation: TransitionOperation;
  from: IncidentStatus;
  to: IncidentStatus;
  actor: Actor;
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

/**
 * A status move: its entry and the row change together in one statement. Returns the row as it
 * stands (a retried move finds its entry and returns the row unchanged); undefined when there is
 * no such incident.
 */
export async function recordTransition(k: Knex, input: TransitionEntry): Promise<IncidentRow | undefined> {
  const at = new Date(input.at);
  const stamps = Object.entries(timestampChanges(input.operation, input.at)).map(([column, value]) => ({ column, value: value === null ? null : at }));
  const sql = `
    with entry as (
      insert into timeline_entries (id, incident_id, organization_id, seq, type, from_status, to_status, actor_type, actor_id, via, message, created_at)
      select ?, id, organization_id, ?, 'status_change', ?, ?, ?, ?, ?, ?, ? from incidents where id = ?
      on conflict (incident_id, seq) do nothing
    ), moved as (
      update incidents set status = ?, last_seq = ?, updated_at = ?${stamps.map((s) => `, "${s.column}" = ?`).join('')}
      where id = ? and last_seq < ?
      returning ${COLUMNS}
    )
    select ${COLUMNS} from moved
    union all
    select ${COLUMNS} from incidents where id = ? and not exists (select 1 from moved)`;
  const bindings = [
    randomUUID(), input.seq, input.from, input.to, input.actor.type, input.actor.id, input.actor.via,
    `${PAST_TENSE[input.operation]} (${input.from} → ${input.to})`, at, input.incidentId,
    input.to, input.seq, at, ...stamps.map((s) => s.value), input.incidentId, input.seq,
    input.incidentId,
  ];
  const { rows } = (await k.raw(sql, bindings)) as { rows: IncidentRow[] };
  return rows[0];
}

/** A run of alerts that joined an incident: their entries take firstSeq, firstSeq+1, … */
export interface AlertsAttachedEntry {
  incidentId: string;
  firstSeq: number;
  alerts: Array<{ title: string }>;
  at: string;
}

/** The entries of a run of attached alerts and the row's last_seq, in one statement. */
export async function recordAlertsAttached(k: Knex, input: AlertsAttachedEntry): Promise<void> {
  const at = new Date(input.at);
  const lastSeq = input.firstSeq + input.alerts.length - 1;
  const entries = input.alerts.map((alert, i) => ({ id: randomUUID(), seq: input.firstSeq + i, message: `Alert attached: ${alert.title}`.slice(0, MESSAGE_LIMIT) }));
  await k.raw(
    `with entry as (
       insert into timeline_entries (id, incident_id, organization_id, seq, type, actor_type, via, message, created_at)
       select e.id, i.id, i.organization_id, e.seq, 'alert_attached', 'system', 'ingest', e.message, ?
       from incidents i cross join json_to_recordset(?::json) as e(id uuid, seq int, message text)
       where i.id = ?
       on conflict (incident_id, seq) do nothing
     )
     update incidents set last_seq = ?, updated_at = ? where id = ? and last_seq < ?`,
    [at, json(entries), input.incidentId, lastSeq, at, input.incidentId, lastSeq],
  );
}

/**
 * A page's entry, at the seq the workflow reserved. last_seq only grows (greatest), so a run
 * seeded from the projection never reuses the seq; the row's updated_at is left alone: a page
 * is not a change of the incident.
 */
export async function recordPageEntry(k: Knex, input: { incidentId: string; seq: number; channel: string; message: string }): Promise<void> {
  await k.raw(
    `with entry as (
       insert into timeline_entries (id, incident_id, organization_id, seq, type, actor_type, actor_id, via, message, created_at)
       select ?, id, organization_id, ?, 'notification', 'system', null, ?, ?, ? from incidents where id = ?
       on conflict (incident_id, seq) do nothing
     )
     update incidents set last_seq = greatest(last_seq, ?) where id = ?`,
    [randomUUID(), input.seq, input.channel, input.message.slice(0, MESSAGE_LIMIT), new Date(), input.incidentId, input.seq, input.incidentId],
  );
}
