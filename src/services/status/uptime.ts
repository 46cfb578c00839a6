import os from 'node:os';
import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import {
  checkAvailability,
  checkDaily,
  heartbeatAvailability,
  heartbeatDaily,
  pausedSpans,
  UPTIME_WINDOW_NAMES,
  UPTIME_WINDOWS,
  windowStarts,
  type Availability,
  type DailyAvailability,
  type UptimeWindow,
} from './uptime-math';

/** What /api/uptime answers. */
export interface UptimeReport {
  process_uptime_seconds: number;
  system_uptime_seconds: number;
  monitors: Array<{ id: string; name: string; status: string; checks_30d: number; availability: Availability; daily: DailyAvailability[] }>;
  heartbeats: Array<{ id: string; name: string; paused: boolean; availability: Availability; daily: DailyAvailability[] }>;
}

const THIRTY_DAYS_MS = UPTIME_WINDOWS['30d'];

/**
 * The process's and the machine's uptime, and per monitor and heartbeat of the workspace its
 * availability over 24 h, 7 d and 30 d and per 24 hours over the last 30 days: monitors from their checks (ok ÷ all), heartbeats from
 * the time their missed-check-in incidents were open, paused time left out.
 */
export async function uptimeReport(orm: MikroORM, organizationId: string, now = new Date()): Promise<UptimeReport> {
  const k = knexOf(orm);
  const since = new Date(now.getTime() - THIRTY_DAYS_MS);
  const starts = Object.fromEntries(Object.entries(windowStarts(now.getTime())).map(([w, ms]) => [w, new Date(ms)])) as Record<UptimeWindow, Date>;
  const monitors = await k('monitors')
    .select('id', 'name', 'status')
    .where({ organization_id: organizationId })
    .orderBy([{ column: 'created_at' }, { column: 'id' }]);
  const [checks, daily, heartbeats, incidents, pauses] = await Promise.all([
    // Counted by the database per window, through the (monitor_id, checked_at) index: a month of
    // one-minute checks never leaves it.
    k('monitor_checks')
      .select(
        'monitor_id',
        ...UPTIME_WINDOW_NAMES.flatMap((w) => [
          k.raw(`count(*) filter (where checked_at > ?)::int as "total_${w}"`, [starts[w]]),
          k.raw(`count(*) filter (where ok and checked_at > ?)::int as "ok_${w}"`, [starts[w]]),
        ]),
      )
      .whereIn(
        'monitor_id',
        monitors.map((m) => m.id),
      )
      .where({ organization_id: organizationId })
      .where('checked_at', '>', since)
      .where('checked_at', '<=', now)
      .groupBy('monitor_id'),
    // The same checks per 24 hours counted back from now (0 = the last 24 hours), for the bars.
    k('monitor_checks')
      .select(
        'monitor_id',
        k.raw('floor(extract(epoch from (?::timestamptz - checked_at)) / 86400)::int as days_ago', [now]),
        k.raw('count(*)::int as total'),
        k.raw('count(*) filter (where ok)::int as ok'),
      )
      .whereIn(
        'monitor_id',
        monitors.map((m) => m.id),
      )
      .where({ organization_id: organizationId })
      .where('checked_at', '>', since)
      .where('checked_at', '<=', now)
      .groupBy('monitor_id', 'days_ago'),
    k('heartbeats')
      .select('id', 'name', 'status', 'service_id', 'created_at')
      .where({ organization_id: organizationId })
      .orderBy([{ column: 'created_at' }, { column: 'id' }]),
    // A heartbeat's missed-check-in incidents carry its dedup key (activities/heartbeats.ts); it was
    // down from the incident's opening until the heartbeat checked in again (its alert resolved).
    k('incidents')
      .select('service_id', 'dedup_key', 'created_at', k.raw('coalesce(alerts_closed_at, resolved_at, closed_at) as ended_at'))
      .where({ organization_id: organizationId })
      .where('dedup_key', 'like', 'heartbeat:%')
      .whereRaw('coalesce(alerts_closed_at, resolved_at, closed_at, ?) > ?', [now, since]),
    // Pauses and resumes are in the audit log (src/services/ingest/heartbeats.ts records both).
    k('audit_log')
      .select('target_id', 'action', 'created_at')
      .where({ organization_id: organizationId, target_type: 'heartbeat' })
      .whereIn('action', ['heartbeat.pause', 'heartbeat.resume']),
  ]);
  const nowMs = now.getTime();
  return {
    process_uptime_seconds: Math.floor(process.uptime()),
    system_uptime_seconds: Math.floor(os.uptime()),
    monitors: monitors.map((m) => {
      const row = checks.find((c) => c.monitor_id === m.id);
      const counts = Object.fromEntries(
        UPTIME_WINDOW_NAMES.map((w) => [w, { ok: Number(row?.[`ok_${w}`] ?? 0), total: Number(row?.[`total_${w}`] ?? 0) }]),
      ) as Record<UptimeWindow, { ok: number; total: number }>;
      const byDay = new Map(daily.filter((d) => d.monitor_id === m.id).map((d) => [Number(d.days_ago), { ok: Number(d.ok), total: Number(d.total) }]));
      return {
        id: m.id,
        name: m.name,
        status: m.status,
        checks_30d: counts['30d'].total,
        availability: checkAvailability(counts),
        daily: checkDaily(byDay, nowMs),
      };
    }),
    heartbeats: heartbeats.map((hb) => {
      const createdAt = new Date(hb.created_at).getTime();
      const down = incidents
        .filter((i) => i.dedup_key === `heartbeat:${hb.id}` && i.service_id === hb.service_id)
        .map((i) => ({ start: new Date(i.created_at).getTime(), end: i.ended_at ? new Date(i.ended_at).getTime() : null }));
      const events = pauses.filter((p) => p.target_id === hb.id).map((p) => ({ at: new Date(p.created_at).getTime(), paused: p.action === 'heartbeat.pause' }));
      const paused = pausedSpans(events, { createdAt, pausedNow: hb.status === 'PAUSED' });
      const history = { createdAt, down, paused };
      return {
        id: hb.id,
        name: hb.name,
        paused: hb.status === 'PAUSED',
        availability: heartbeatAvailability(history, nowMs),
        daily: heartbeatDaily(history, nowMs),
      };
    }),
  };
}
