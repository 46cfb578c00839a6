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
import type { Actor } from '../../contracts/workflows';
import { INCIDENT_COLUMNS, type IncidentRow } from './view';
import { actorJson, EVENT_INSERT } from './feed-sql';
import { isEscalation, pageEventType, transitionEventType } from '../../domain/incident-events';

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
  /** The alert event that opened it (ingestion): kept on the `created` entry. */
  eventId?: string;
  /** Ingestion's noise control (docs/grouping.md): the rule and group key, the opening source, the source whose storm incident it is. */
  noise?: { groupRule: string | null; groupKey: string | null; openedBySourceId: string | null; stormSourceId: string | null };
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

/** Opens one incident (its row and `created` entry): the API's way in. Returns its row. */
export async function openIncident(trx: Knex.Transaction, opening: IncidentOpening, now = new Date()): Promise<IncidentRow> {
  const [row] = await storeIncidentBatch(trx, { opened: [opening], alertsAdded: [] }, now);
  return row;
}

/**
 * Takes back an incident the API opened but could not start (Temporal away), in the caller's
 * transaction: its row, its `created` entry, and its number when no later incident has taken one,
 * so the caller's retry gets the same number. Only an incident nothing else has written to
 * (last_seq 1) goes; returns whether it did.
 */
export async function withdrawIncident(trx: Knex.Transaction, incidentId: string): Promise<boolean> {
  const { rows } = (await trx.raw(
    `with gone as (
       delete from incidents where id = ? and last_seq = 1 returning id, organization_id, number
     ), entries as (
       delete from timeline_entries t using gone where t.incident_id = gone.id
     ), events as (
       delete from incident_events e using gone where e.incident_id = gone.id
     ), numbering as (
       update organizations o set incident_seq = o.incident_seq - 1 from gone where o.id = gone.organization_id and o.incident_seq = gone.number
     )
     select id from gone`,
    [incidentId],
  )) as { rows: Array<{ id: string }> };
  return rows.length > 0;
}

/** Runs a batch's incident writes on their own; returns the opened rows. */
export async function storeIncidentBatch(trx: Knex.Transaction, batch: IncidentBatch, now = new Date()): Promise<IncidentRow[]> {
  const writes = await prepareIncidentBatch(trx, batch, now);
  const { rows } = (await trx.raw(`with ${writes.ctes} select ${COLUMNS} from new_incidents`, writes.bindings)) as { rows: IncidentRow[] };
  return rows;
}

/**
 * A batch's incident writes, ready to run: CTEs (`new_incidents`, which returns the opened rows,
 * `created_entries`, `alerts_added`) and their named bindings (`now` among them). Ingestion puts
 * them in front of its own alert and outbox writes, so a batch costs one round trip; the SQL
 * stays here, with its one owner.
 */
export interface IncidentBatchWrites {
  ctes: string;
  bindings: Record<string, unknown>;
}

/**
 * Numbers a batch's new incidents per workspace, in the order given (the one statement that
 * must run first), and returns the writes that open them, with their `created` entries, and
 * count alerts added to open ones.
 */
export async function prepareIncidentBatch(trx: Knex.Transaction, batch: IncidentBatch, now = new Date()): Promise<IncidentBatchWrites> {
  const numbers = batch.opened.length ? await numberPerWorkspace(trx, batch.opened) : [];
  const incidents = batch.opened.map((o, i) => ({
    id: o.id,
    organization_id: o.organizationId,
    number: numbers[i],
    service_id: o.serviceId,
    owning_team_id: o.owningTeamId,
    title: o.title,
    description: o.description,
    severity: o.severity,
    dedup_key: o.dedupKey,
    alert_count: o.alertCount,
    group_rule: o.noise?.groupRule ?? null,
    group_key: o.noise?.groupKey ?? null,
    opened_by_source_id: o.noise?.openedBySourceId ?? null,
    storm_source_id: o.noise?.stormSourceId ?? null,
  }));
  const entries = batch.opened.map((o, i) => ({
    id: randomUUID(),
    incident_id: o.id,
    organization_id: o.organizationId,
    actor_type: o.actor.type,
    actor_id: o.actor.id,
    via: o.actor.via,
    event_id: o.eventId ?? null,
    message: `Incident #${numbers[i]} opened${o.openedBy ? ` by ${o.openedBy}` : ''}: ${o.title}`,
  }));
  return {
    ctes: BATCH_CTES,
    bindings: {
      incidents: json(incidents),
      entries: json(entries),
      added: json(batch.alertsAdded.map((a) => ({ id: a.incidentId, n: a.count }))),
      addedIds: `{${batch.alertsAdded.map((a) => a.incidentId).join(',')}}`,
      now,
    },
  };
}

/** Takes the next incident numbers of each workspace in the batch; returns each opening's. */
async function numberPerWorkspace(trx: Knex.Transaction, opened: IncidentOpening[]): Promise<number[]> {
  const perOrg = new Map<string, number>();
  for (const o of opened) perOrg.set(o.organizationId, (perOrg.get(o.organizationId) ?? 0) + 1);
  const orgIds = [...perOrg.keys()].sort();
  // Several workspaces in one batch: lock their rows in one order first, so batches cannot deadlock.
  if (orgIds.length > 1) await trx.raw(`select id from organizations where id in (${orgIds.map(() => '?').join(', ')}) order by id for update`, orgIds);
  const { rows } = (await trx.raw(
    `update organizations o set incident_seq = o.incident_seq + v.n from json_to_recordset(?::json) as v(id uuid, n int) where o.id = v.id returning o.id, o.incident_seq`,
    [json(orgIds.map((id) => ({ id, n: perOrg.get(id) })))],
  )) as { rows: Array<{ id: string; incident_seq: number }> };
  const next = new Map(rows.map((r) => [r.id, r.incident_seq - perOrg.get(r.id)! + 1]));
  return opened.map((o) => {
    const number = next.get(o.organizationId)!;
    next.set(o.organizationId, number + 1);
    return number;
  });
}

const BATCH_CTES = `
new_incidents as (
  insert into incidents (id, organization_id, number, service_id, owning_team_id, title, description, severity, status, dedup_key, alert_count, last_seq, created_at, updated_at,
                         group_rule, group_key, opened_by_source_id, storm_source_id)
  select id, organization_id, number, service_id, owning_team_id, title, description, severity, 'TRIGGERED', dedup_key, alert_count, 1, :now, :now,
         group_rule, group_key, opened_by_source_id, storm_source_id
  from json_to_recordset(:incidents::json) as r(id uuid, organization_id uuid, number int, service_id uuid, owning_team_id uuid, title text, description text, severity text, dedup_key text, alert_count int,
                                                 group_rule text, group_key text, opened_by_source_id uuid, storm_source_id uuid)
  returning ${COLUMNS}
), created_entries as (
  insert into timeline_entries (id, incident_id, organization_id, seq, type, to_status, actor_type, actor_id, via, message, event_id, created_at)
  select id, incident_id, organization_id, 1, 'created', 'TRIGGERED', actor_type, actor_id, via, message, event_id, :now
  from json_to_recordset(:entries::json) as r(id uuid, incident_id uuid, organization_id uuid, actor_type text, actor_id uuid, via text, message text, event_id uuid)
), triggered_events as (
  ${EVENT_INSERT}
  select gen_random_uuid(), n.organization_id, n.id, 'incident.triggered', to_jsonb(n), ${actorJson('r.actor_type', 'r.actor_id', 'r.via')},
         jsonb_build_object('alert_event_id', r.event_id), :now
  from new_incidents n join json_to_recordset(:entries::json) as r(incident_id uuid, actor_type text, actor_id uuid, via text, event_id uuid) on r.incident_id = n.id
), alerts_added as (
  update incidents i set alert_count = i.alert_count + v.n, updated_at = :now
  from json_to_recordset(:added::json) as v(id uuid, n int)
  -- The array (its length known to the planner) makes this a primary-key lookup, never a scan.
  where i.id = any(:addedIds::uuid[]) and i.id = v.id
)`;

export interface TransitionEntry {
  incidentId: string;
  seq: number;
  operation: TransitionOperation;
  from: IncidentStatus;
  to: IncidentStatus;
  actor: Actor;
  at: string;
  /** The sender's resolve event behind the move, when ingestion resolved it. */
  eventId?: string;
  /** Said after the move's name, e.g. `after 72 h` for an automatic close. */
  detail?: string;
  /** More for the feed event's `data` (a reassign's targets, a merge's target incident). */
  data?: Record<string, unknown>;
}

const PAST_TENSE: Record<TransitionOperation, string> = {
  acknowledge: 'Acknowledged',
  investigate: 'Investigation started',
  resolve: 'Resolved',
  close: 'Closed',
  reopen: 'Reopened',
  ack_timeout: 'Acknowledgement timed out',
  auto_close: 'Closed automatically',
  snooze_end: 'Snooze ended',
  reassign: 'Reassigned',
  merge: 'Resolved',
};

/**
 * A status move: its entry and the row change together in one statement. Returns the row as it
 * stands (a retried move finds its entry and returns the row unchanged); undefined when there is
 * no such incident.
 */
export async function recordTransition(k: Knex, input: TransitionEntry): Promise<{ row: IncidentRow; seq: number } | undefined> {
  const written = await writeTransition(k, input);
  if (!written || written.inserted) return written && { row: written.row, seq: input.seq };
  const taken = await entryAt(k, input.incidentId, input.seq);
  if (!taken || isSameMove(taken, input)) return { row: written.row, seq: input.seq };
  // The seq holds another entry: a workflow task that wrote and was then lost numbered it, and
  // its retry numbered this move the same. The move goes after everything written so far (or is
  // found there, when this is a retry of a move renumbered before).
  const moved = await k('timeline_entries')
    .where({ incident_id: input.incidentId, type: 'status_change', from_status: input.from, to_status: input.to })
    .where('seq', '>', input.seq)
    .orderBy('seq')
    .first('seq');
  const seq = moved ? moved.seq : await nextFreeSeq(k, input.incidentId);
  const again = await writeTransition(k, { ...input, seq });
  return again && { row: again.row, seq };
}

/** The entry at a seq, as much of it as tells whose it is. */
async function entryAt(k: Knex, incidentId: string, seq: number): Promise<{ type: string; from_status: string | null; to_status: string | null } | undefined> {
  return k('timeline_entries').where({ incident_id: incidentId, seq }).first('type', 'from_status', 'to_status');
}

const isSameMove = (entry: { type: string; from_status: string | null; to_status: string | null }, input: TransitionEntry) =>
  entry.type === 'status_change' && entry.from_status === input.from && entry.to_status === input.to;

/** The seq after every entry written and every seq reserved (last_seq). */
async function nextFreeSeq(k: Knex, incidentId: string): Promise<number> {
  const { rows } = (await k.raw(
    `select greatest(coalesce((select max(seq) from timeline_entries where incident_id = ?), 0), coalesce((select last_seq from incidents where id = ?), 0)) + 1 as seq`,
    [incidentId, incidentId],
  )) as { rows: Array<{ seq: number }> };
  return Number(rows[0].seq);
}

/** The move's entry and row change in one statement; says whether the entry was inserted. */
async function writeTransition(k: Knex, input: TransitionEntry): Promise<{ row: IncidentRow; inserted: boolean } | undefined> {
  const at = new Date(input.at);
  // A reopened incident takes its key's alerts again (ingestion stopped routing them to it when its sender resolved it).
  const reopen = input.operation === 'reopen';
  const stamps = Object.entries(timestampChanges(input.operation, input.at)).map(([column, value]) => ({ column, value: value === null ? null : at }));
  const sql = `
    with entry as (
      insert into timeline_entries (id, incident_id, organization_id, seq, type, from_status, to_status, actor_type, actor_id, via, message, event_id, created_at)
      select ?, id, organization_id, ?, 'status_change', ?, ?, ?, ?, ?, ?, ?, ? from incidents where id = ?
      on conflict (incident_id, seq) do nothing
      returning seq
    ), moved as (
      update incidents set status = ?, last_seq = ?, updated_at = ?${reopen ? ', alerts_closed_at = null' : ''}${stamps.map((s) => `, "${s.column}" = ?`).join('')}
      where id = ? and last_seq < ? and exists (select 1 from entry)
      returning ${COLUMNS}
    ), moved_event as (
      ${EVENT_INSERT}
      select gen_random_uuid(), m.organization_id, m.id, ?, to_jsonb(m), ${actorJson('?::text', '?::uuid', '?::text')}, ?::jsonb, ? from moved m
    )
    select ${COLUMNS}, true as inserted from moved
    union all
    select ${COLUMNS}, exists (select 1 from entry) as inserted from incidents where id = ? and not exists (select 1 from moved)`;
  const bindings = [
    randomUUID(),
    input.seq,
    input.from,
    input.to,
    input.actor.type,
    input.actor.id,
    input.actor.via,
    `${PAST_TENSE[input.operation]}${input.detail ? ` ${input.detail}` : ''} (${input.from} → ${input.to})`,
    input.eventId ?? null,
    at,
    input.incidentId,
    input.to,
    input.seq,
    at,
    ...stamps.map((s) => s.value),
    input.incidentId,
    input.seq,
    transitionEventType(input.operation, input.to),
    input.actor.type,
    input.actor.id,
    input.actor.id,
    input.actor.via,
    JSON.stringify({ ...input.data, from: input.from, to: input.to, operation: input.operation, alert_event_id: input.eventId ?? null }),
    at,
    input.incidentId,
  ];
  const { rows } = (await k.raw(sql, bindings)) as { rows: Array<IncidentRow & { inserted: boolean }> };
  if (!rows[0]) return undefined;
  const { inserted, ...row } = rows[0];
  return { row: row as IncidentRow, inserted };
}

/** A run of alerts that joined an incident: their entries take firstSeq, firstSeq+1, … */
export interface AlertsAttachedEntry {
  incidentId: string;
  firstSeq: number;
  /** Each alert's title, and the event that attached it (absent only in runs recorded before event ids were kept). */
  alerts: Array<{ title: string; eventId?: string }>;
  at: string;
}

/**
 * The entries of a run of attached alerts and the row's last_seq, in one statement. Returns the
 * last seq they hold: beyond `firstSeq + n - 1` when some seqs held other entries (a lost workflow
 * task's writes), in which case they go after everything written so far. An alert whose event
 * already has its entry (a retried write) is not written again.
 */
export async function recordAlertsAttached(k: Knex, input: AlertsAttachedEntry): Promise<{ lastSeq: number }> {
  const at = new Date(input.at);
  const entries = input.alerts.map((alert, i) => ({
    id: randomUUID(),
    seq: input.firstSeq + i,
    event_id: alert.eventId ?? null,
    message: `Alert attached: ${alert.title}`.slice(0, MESSAGE_LIMIT),
  }));
  const planned = input.firstSeq + input.alerts.length - 1;
  if (await insertAttached(k, input.incidentId, entries, at)) return { lastSeq: planned };
  const withEvent = entries.filter((e) => e.event_id !== null);
  const present: Array<{ event_id: string; seq: number }> = await k('timeline_entries')
    .where({ incident_id: input.incidentId })
    .whereIn(
      'event_id',
      withEvent.map((e) => e.event_id!),
    )
    .select('event_id', 'seq');
  const presentIds = new Set(present.map((p) => p.event_id));
  const missing = withEvent.filter((e) => !presentIds.has(e.event_id!));
  if (!missing.length) return { lastSeq: Math.max(planned, ...present.map((p) => p.seq)) };
  const base = await nextFreeSeq(k, input.incidentId);
  const moved = missing.map((e, i) => ({ ...e, seq: base + i }));
  await insertAttached(k, input.incidentId, moved, at);
  return { lastSeq: Math.max(planned, base + moved.length - 1) };
}

/** Inserts attached-alert entries at their seqs, all or (when any seq is taken) none; says which. */
async function insertAttached(
  k: Knex,
  incidentId: string,
  entries: Array<{ id: string; seq: number; event_id: string | null; message: string }>,
  at: Date,
): Promise<boolean> {
  const firstSeq = Math.min(...entries.map((e) => e.seq));
  const lastSeq = Math.max(...entries.map((e) => e.seq));
  const { rows } = (await k.raw(
    `with entry as (
       insert into timeline_entries (id, incident_id, organization_id, seq, type, actor_type, via, message, event_id, created_at)
       select e.id, i.id, i.organization_id, e.seq, 'alert_attached', 'system', 'ingest', e.message, e.event_id, ?
       from incidents i cross join json_to_recordset(?::json) as e(id uuid, seq int, message text, event_id uuid)
       where i.id = ? and not exists (select 1 from timeline_entries t where t.incident_id = i.id and t.seq between ? and ?)
       on conflict (incident_id, seq) do nothing
       returning seq
     ), bumped as (
       update incidents set last_seq = ?, updated_at = ? where id = ? and last_seq < ? and exists (select 1 from entry)
     ), attached_event as (
       ${EVENT_INSERT}
       select gen_random_uuid(), i.organization_id, i.id, 'incident.alert_attached', to_jsonb(i), ${actorJson(`'system'`, 'null::uuid', `'ingest'`)}, ?::jsonb, ?
       from (select ${COLUMNS} from incidents where id = ?) i where exists (select 1 from entry)
     )
     select count(*)::int as n from entry`,
    [at, json(entries), incidentId, firstSeq, lastSeq, lastSeq, at, incidentId, lastSeq, attachedEventData(entries), at, incidentId],
  )) as { rows: Array<{ n: number }> };
  return rows[0].n === entries.length;
}

/** What an `incident.alert_attached` event says: how many alerts joined, and the first few. */
const ATTACHED_LISTED = 20;
const attachedEventData = (entries: Array<{ event_id: string | null; message: string }>) =>
  json({
    count: entries.length,
    alerts: entries.slice(0, ATTACHED_LISTED).map((e) => ({ event_id: e.event_id, title: e.message.replace(/^Alert attached: /, '') })),
  });

/**
 * A page's entry, at the seq the workflow reserved, with its structured `data` for the UI.
 * last_seq only grows (greatest), so a run seeded from the projection never reuses the seq; the
 * row's updated_at is left alone: a page is not a change of the incident.
 */
export async function recordPageEntry(
  k: Knex,
  input: { incidentId: string; seq: number; channel: string; message: string; data?: object },
  /** Another table's write (its one writer's common table expression) in the same statement: one round trip. */
  alsoWrite?: { sql: string; bindings: unknown[] },
): Promise<void> {
  await recordPagingEntry(k, { ...input, type: 'notification', via: input.channel }, alsoWrite);
}

/**
 * A paging decision's entry (docs/architecture.md, "Paging"): who a step resolved to, who was not paged and why,
 * or that nobody was; at the seq the workflow reserved for it, like a page's.
 */
export async function recordPagingDecision(k: Knex, input: { incidentId: string; seq: number; message: string; data: object }): Promise<void> {
  await recordPagingEntry(k, { ...input, type: 'paging_decision', via: 'escalation' });
}

/** The feed event a paging entry writes, if any: a page delivered or failed, an escalation. */
function pagingEventType(type: string, data: object | undefined): string | null {
  const d = (data ?? {}) as { status?: string; step_number?: number; pass_number?: number };
  if (type === 'notification') return d.status ? pageEventType(d.status) : null;
  return isEscalation(d.step_number ?? 1, d.pass_number ?? 1) ? 'incident.escalated' : null;
}

async function recordPagingEntry(
  k: Knex,
  input: { incidentId: string; seq: number; type: string; via: string; message: string; data?: object },
  alsoWrite?: { sql: string; bindings: unknown[] },
): Promise<void> {
  const now = new Date();
  const data = input.data ? JSON.stringify(input.data) : null;
  const eventType = pagingEventType(input.type, input.data);
  await k.raw(
    `with ${alsoWrite ? `${alsoWrite.sql}, ` : ''}entry as (
       insert into timeline_entries (id, incident_id, organization_id, seq, type, actor_type, actor_id, via, message, data, created_at)
       select ?, id, organization_id, ?, ?, 'system', null, ?, ?, ?::jsonb, ? from incidents where id = ?
       on conflict (incident_id, seq) do nothing
       returning id
     ), paging_event as (
       ${EVENT_INSERT}
       select gen_random_uuid(), i.organization_id, i.id, ?::text, to_jsonb(i), ${actorJson(`'system'`, 'null::uuid', '?::text')}, coalesce(?::jsonb, '{}'), ?
       from (select ${COLUMNS} from incidents where id = ?) i where ?::text is not null and exists (select 1 from entry)
     )
     update incidents set last_seq = greatest(last_seq, ?) where id = ?`,
    [
      ...(alsoWrite?.bindings ?? []),
      randomUUID(),
      input.seq,
      input.type,
      input.via,
      input.message.slice(0, MESSAGE_LIMIT),
      data,
      now,
      input.incidentId,
      eventType,
      input.via,
      data,
      now,
      input.incidentId,
      eventType,
      input.seq,
      input.incidentId,
    ],
  );
}
