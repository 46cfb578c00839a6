import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { ACKNOWLEDGING_INCIDENT_STATUSES, type AlertStatus } from '../../domain/alert-status';
import { isUuid } from '../../domain/ids';
import type { Severity } from '../../domain/severity';
import { knexOf } from '../../db/knex';
import { notFound } from '../errors';
import { alertPageColumns, alertRecord, withAlertView, type AlertRecord, type AlertViewRow } from './view';

export interface ListAlertsQuery {
  organizationId: string;
  status?: AlertStatus;
  severity?: Severity;
  /** Only this incident's alerts. */
  incidentId?: string;
  limit: number;
  offset: number;
}

/**
 * The workspace's alerts matching the filters, as `alerts as m`. Only the `active` and
 * `acknowledged` filters need the incident's status; `resolved` is the alert's own.
 */
function matching(knex: Knex, q: ListAlertsQuery): Knex.QueryBuilder {
  const query = knex('alerts as m').where('m.organization_id', q.organizationId);
  if (q.severity) query.andWhere('m.severity', q.severity);
  if (q.incidentId) query.andWhere('m.incident_id', q.incidentId);
  if (q.status === 'resolved') query.andWhere('m.status', 'RESOLVED');
  else if (q.status) {
    query.andWhere('m.status', 'ACTIVE').join('incidents as mi', 'mi.id', 'm.incident_id');
    if (q.status === 'acknowledged') query.whereIn('mi.status', ACKNOWLEDGING_INCIDENT_STATUSES);
    else query.whereNotIn('mi.status', ACKNOWLEDGING_INCIDENT_STATUSES);
  }
  return query;
}

/** A page of the workspace's alerts, newest first, and how many match: two queries whatever the page. */
export async function listAlerts(deps: { orm: MikroORM }, q: ListAlertsQuery): Promise<{ alerts: AlertRecord[]; total: number }> {
  const knex = knexOf(deps.orm);
  const page = matching(knex, q)
    .select(alertPageColumns(knex))
    .orderBy([
      { column: 'm.created_at', order: 'desc' },
      { column: 'm.id', order: 'desc' },
    ])
    .limit(q.limit)
    .offset(q.offset);
  const [rows, [{ n }]] = await Promise.all([withAlertView(knex, page), matching(knex, q).count({ n: '*' })]);
  return { alerts: (rows as AlertViewRow[]).map(alertRecord), total: Number(n) };
}

/** One alert of this workspace; another workspace's alert, or an id that is no UUID, is not found. */
export async function getAlert(deps: { orm: MikroORM }, organizationId: string, alertId: string): Promise<AlertRecord> {
  const knex = knexOf(deps.orm);
  const row = isUuid(alertId)
    ? ((await withAlertView(
        knex,
        knex('alerts as m').select(alertPageColumns(knex)).where({ 'm.id': alertId, 'm.organization_id': organizationId }),
      ).first()) as AlertViewRow | undefined)
    : undefined;
  if (!row) throw notFound(`alert ${alertId} not found`);
  return alertRecord(row);
}
