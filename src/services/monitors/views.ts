import type { Knex } from '@mikro-orm/postgresql';
import { iso, isoOrNull } from '../../db/timestamps';

/** A monitor row with its latest check and its last 24 hours of checks counted. */
export interface MonitorViewRow {
  id: string;
  organization_id: string;
  service_id: string;
  name: string;
  type: string;
  target: string;
  method: string;
  interval_seconds: number;
  timeout_seconds: number;
  expected_status_codes: number[] | null;
  keyword: string | null;
  failure_threshold: number;
  status: string;
  state: string;
  consecutive_failures: number;
  last_checked_at: Date | string | null;
  open_incident_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  lc_checked_at: Date | string | null;
  lc_ok: boolean | null;
  lc_status_code: number | null;
  lc_latency_ms: number | null;
  lc_error: string | null;
  checks_24h: number | string;
  ok_24h: number | string;
}

/**
 * Monitors with their latest check and uptime over 24 h, oldest first; `where` narrows (by
 * workspace, id). Both use the (monitor_id, checked_at) index.
 */
export function monitorViews(db: Knex, where: { organization_id: string; id?: string }): Promise<MonitorViewRow[]> {
  const q = db('monitors as m')
    .select(
      'm.*',
      'lc.checked_at as lc_checked_at',
      'lc.ok as lc_ok',
      'lc.status_code as lc_status_code',
      'lc.latency_ms as lc_latency_ms',
      'lc.error as lc_error',
      'up.checks_24h',
      'up.ok_24h',
    )
    .joinRaw(
      'left join lateral (select c.checked_at, c.ok, c.status_code, c.latency_ms, c.error from monitor_checks c where c.monitor_id = m.id order by c.checked_at desc limit 1) lc on true',
    )
    .joinRaw(
      `left join lateral (select count(*) as checks_24h, count(*) filter (where c.ok) as ok_24h from monitor_checks c where c.monitor_id = m.id and c.checked_at > now() - interval '24 hours') up on true`,
    )
    .where('m.organization_id', where.organization_id)
    .orderBy([{ column: 'm.created_at' }, { column: 'm.id' }]);
  if (where.id) q.andWhere('m.id', where.id);
  return q;
}

/** Share of the last 24 hours' checks that passed, in percent (two decimals); null before any. */
export function uptimePercent(r: Pick<MonitorViewRow, 'checks_24h' | 'ok_24h'>): number | null {
  const total = Number(r.checks_24h ?? 0);
  return total === 0 ? null : Math.round((Number(r.ok_24h) / total) * 10_000) / 100;
}

/** What people read of a monitor's state: PAUSED when paused, else PENDING (never checked), UP or DOWN. */
export const publicStatus = (r: Pick<MonitorViewRow, 'status' | 'state'>): 'PAUSED' | 'PENDING' | 'UP' | 'DOWN' =>
  r.status === 'PAUSED' ? 'PAUSED' : (r.state as 'PENDING' | 'UP' | 'DOWN');

const lastCheck = (r: MonitorViewRow) =>
  r.lc_checked_at === null || r.lc_checked_at === undefined
    ? null
    : { checked_at: iso(r.lc_checked_at), ok: Boolean(r.lc_ok), status_code: r.lc_status_code, latency_ms: r.lc_latency_ms };

/** What every view of a monitor starts with: which it is and what it checks. */
const identity = (r: MonitorViewRow) => ({
  id: r.id,
  service_id: r.service_id,
  name: r.name,
  type: r.type,
  url: r.target,
  target: r.target,
});

/** A monitor as the customer API shows it (read-only): what it checks, its status, last check and uptime. */
export const customerMonitorJson = (r: MonitorViewRow) => ({
  ...identity(r),
  interval_seconds: r.interval_seconds,
  status: publicStatus(r),
  last_check: lastCheck(r),
  uptime_24h: uptimePercent(r),
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});
export type CustomerMonitorJson = ReturnType<typeof customerMonitorJson>;

/** A monitor as the dashboard shows it: every setting, its state, its last check (with why it failed) and uptime. */
export const dashboardMonitorJson = (r: MonitorViewRow) => ({
  ...identity(r),
  method: r.method,
  interval_seconds: r.interval_seconds,
  timeout_seconds: r.timeout_seconds,
  expected_status_codes: r.expected_status_codes,
  keyword: r.keyword,
  failure_threshold: r.failure_threshold,
  status: r.status as 'ACTIVE' | 'PAUSED',
  state: publicStatus(r),
  consecutive_failures: r.consecutive_failures,
  last_checked_at: isoOrNull(r.last_checked_at),
  last_check: lastCheck(r) && { ...lastCheck(r)!, error: r.lc_error },
  uptime_24h: uptimePercent(r),
  open_incident_id: r.open_incident_id,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});
export type DashboardMonitorJson = ReturnType<typeof dashboardMonitorJson>;
