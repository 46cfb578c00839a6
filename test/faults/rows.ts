/**
 * Reads what the accounting needs from the suite's own database (nothing else lives in it), and
 * the counts the quiet wait watches.
 */
import { Client as PgClient } from 'pg';
import type { AlertRow, IdempotencyRow, IncidentRow, OutboxRow, TimelineRow } from './ledger';

/** The database rows of a ledger. */
export interface StoredRows {
  idempotency: IdempotencyRow[];
  alerts: AlertRow[];
  incidents: IncidentRow[];
  timeline: TimelineRow[];
  outbox: OutboxRow[];
}

async function withClient<T>(url: string, fn: (c: PgClient) => Promise<T>): Promise<T> {
  const client = new PgClient({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export function readRows(url: string): Promise<StoredRows> {
  return withClient(url, async (c) => {
    const idempotency = await c.query<IdempotencyRow>('select key, event_id as "eventId", incident_id as "incidentId" from idempotency_records');
    const alerts = await c.query<AlertRow>('select id, incident_id as "incidentId", title, status from alerts');
    const incidents = await c.query<IncidentRow>('select id, number, status from incidents');
    // `select *`: a structured column saying a page was retried after an unknown outcome is read when there is one.
    const timeline = await c.query<Record<string, unknown>>('select * from timeline_entries');
    const outbox = await c.query<OutboxRow>(
      'select incident_id as "incidentId", event_id as "eventId", kind, delivered_at is not null as delivered from ingest_outbox',
    );
    return {
      idempotency: idempotency.rows,
      alerts: alerts.rows,
      incidents: incidents.rows,
      timeline: timeline.rows.map(timelineRow),
      outbox: outbox.rows,
    };
  });
}

function timelineRow(r: Record<string, unknown>): TimelineRow {
  const data = r.data as { unknown_outcome_retry?: unknown } | null | undefined;
  return {
    incidentId: String(r.incident_id),
    type: String(r.type),
    toStatus: (r.to_status as string | null) ?? null,
    via: (r.via as string | null) ?? null,
    message: String(r.message),
    createdAt: r.created_at instanceof Date ? r.created_at.toISOString() : String(r.created_at),
    unknownOutcomeRetry: data?.unknown_outcome_retry === true,
  };
}

/** What moves while the system catches up; quiet is when none of it moves and nothing is pending. */
export interface Activity {
  /** Outbox messages not yet delivered to their workflows. */
  undelivered: number;
  /**
   * Delivered messages whose workflow has not written their effect yet (an "Alert attached"
   * entry, the sender's resolve), and TRIGGERED incidents with no page decided yet: the
   * workflows' backlog, as far as Postgres can see it.
   */
  unapplied: number;
  /** Pages not in a final state (queued, or being sent). */
  pagesPending: number;
  incidents: number;
  entries: number;
  notifications: number;
  /** The latest change to any page row: a page retrying through its backoff moves this. */
  pageChangedAt: string | null;
}

export function readActivity(url: string): Promise<Activity> {
  return withClient(url, async (c) => {
    const { rows } = await c.query<Record<keyof Activity, string>>(`
      select (select count(*) from ingest_outbox where delivered_at is null) as undelivered,
             (select count(*) from ingest_outbox o join alerts a on a.id = o.event_id
               where o.kind = 'attached' and o.delivered_at is not null
                 and not exists (select 1 from timeline_entries t where t.incident_id = o.incident_id and t.type = 'alert_attached' and t.message = 'Alert attached: ' || a.title))
             + (select count(*) from ingest_outbox o
               where o.kind = 'resolved' and o.delivered_at is not null
                 and not exists (select 1 from timeline_entries t where t.incident_id = o.incident_id and t.type = 'status_change' and t.to_status = 'RESOLVED' and (t.via = 'ingest' or t.message like '%merged into #%')))
             + (select count(*) from incidents i where i.status = 'TRIGGERED' and not exists (select 1 from notifications n where n.incident_id = i.id)) as unapplied,
             (select count(*) from notifications where status not in ('sent', 'delivered', 'failed', 'skipped')) as "pagesPending",
             (select count(*) from incidents) as incidents,
             (select count(*) from timeline_entries) as entries,
             (select count(*) from notifications) as notifications,
             (select max(updated_at)::text from notifications) as "pageChangedAt"`);
    const r = rows[0];
    return {
      undelivered: Number(r.undelivered),
      unapplied: Number(r.unapplied),
      pagesPending: Number(r.pagesPending),
      incidents: Number(r.incidents),
      entries: Number(r.entries),
      notifications: Number(r.notifications),
      pageChangedAt: r.pageChangedAt,
    };
  });
}

/** Pages left in a state that is not final, for the report: which incident, what state, since when. */
export function readPendingPages(url: string): Promise<Array<{ number: number; incidentStatus: string; status: string; createdAt: string; to: string }>> {
  return withClient(url, async (c) => {
    const { rows } = await c.query<{ number: number; incidentStatus: string; status: string; createdAt: string; to: string }>(`
      select i.number, i.status as "incidentStatus", n.status, n.created_at::text as "createdAt", n.target as "to"
      from notifications n join incidents i on i.id = n.incident_id
      where n.status not in ('sent', 'delivered', 'failed', 'skipped') order by i.number`);
    return rows;
  });
}
