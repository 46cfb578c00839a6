import type { Knex } from '@mikro-orm/postgresql';
import { ACKNOWLEDGING_INCIDENT_STATUSES, alertSeverityName, alertStatusOf, type AlertRowStatus } from '../../domain/alert-status';
import type { IncidentStatus } from '../../domain/incident-lifecycle';
import type { Severity } from '../../domain/severity';
import { iso, isoOrNull } from '../../db/timestamps';

/** The alert columns a record is built from, as the inner (paged) query over `alerts as m` selects them. */
export const alertPageColumns = (knex: Knex) => [
  'm.id',
  'm.title',
  'm.message',
  'm.severity',
  'm.status',
  'm.tags',
  'm.url',
  'm.source_id',
  'm.incident_id',
  'm.created_at',
  'm.resolved_at',
  knex.raw(`m.metadata->>'source' as source`),
];

/** One alert as read: its row, its incident's status, its live webhook and its acknowledgement. */
export interface AlertViewRow {
  id: string;
  title: string;
  message: string | null;
  severity: Severity;
  status: AlertRowStatus;
  source: string | null;
  tags: Record<string, string> | null;
  url: string | null;
  incident_id: string;
  created_at: Date | string;
  resolved_at: Date | string | null;
  incident_status: IncidentStatus;
  webhook_id: string | null;
  acknowledged_at: Date | string | null;
}

const quoted = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

/**
 * Decorates a page of alert rows (aliased `m` inside `page`) with what the record shows: the
 * incident's status, the webhook when its source is still a live webhook (a deleted or
 * policy-paged source shows none), and — only for an alert its incident acknowledges — the time
 * of the incident's latest move to ACKNOWLEDGED (a backward scan of the (incident_id, seq) key,
 * one row). Runs over the page only, never over every match.
 */
export function withAlertView(knex: Knex, page: Knex.QueryBuilder): Knex.QueryBuilder {
  return knex
    .from(page.as('a'))
    .join('incidents as i', 'i.id', 'a.incident_id')
    .leftJoin('alert_sources as s', (on) => {
      on.on('s.id', 'a.source_id').onIn('s.status', ['ACTIVE', 'PAUSED']).onNotNull('s.channels');
    })
    .joinRaw(
      `left join lateral (
        select t.created_at from timeline_entries t
        where a.status = 'ACTIVE' and i.status in (${quoted(ACKNOWLEDGING_INCIDENT_STATUSES)})
          and t.incident_id = a.incident_id and t.to_status = 'ACKNOWLEDGED'
        order by t.seq desc limit 1
      ) ack on true`,
    )
    .select(
      'a.id',
      'a.title',
      'a.message',
      'a.severity',
      'a.status',
      'a.tags',
      'a.url',
      'a.incident_id',
      'a.created_at',
      'a.resolved_at',
      'a.source',
      'i.status as incident_status',
      's.id as webhook_id',
      'ack.created_at as acknowledged_at',
    )
    .orderBy([
      { column: 'a.created_at', order: 'desc' },
      { column: 'a.id', order: 'desc' },
    ]);
}

/** An alert as the API-key surface shows it (spec "Alert"). */
export function alertRecord(r: AlertViewRow) {
  const status = alertStatusOf(r.status, r.incident_status);
  return {
    id: r.id,
    title: r.title,
    message: r.message,
    severity: alertSeverityName(r.severity),
    status,
    source: r.source,
    tags: r.tags ?? {},
    url: r.url,
    webhook_id: r.webhook_id,
    incident_id: r.incident_id,
    created_at: iso(r.created_at),
    acknowledged_at: status === 'acknowledged' ? isoOrNull(r.acknowledged_at) : null,
    resolved_at: isoOrNull(r.resolved_at),
  };
}
export type AlertRecord = ReturnType<typeof alertRecord>;
