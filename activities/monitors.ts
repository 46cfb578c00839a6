import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { IngestItem } from '../src/domain/ingest/plan';
import { applyCheck, type MonitorState } from '../src/domain/monitors/state';
import type { MonitorMethod } from '../src/domain/monitors/target';
import { knexOf } from '../src/db/knex';
import { OPEN_STATUSES, storeResolve, storeTriggers, type SourceRef } from '../src/services/ingest';
import { probe, type ProbeResult } from '../src/services/monitors/probe';

/** What a check answers its workflow: `gone` when the monitor no longer exists (its workflow ends). */
export type MonitorCheckOutcome = { outcome: 'gone' } | { outcome: 'checked'; ok: boolean };

interface MonitorRow {
  id: string;
  organization_id: string;
  service_id: string;
  team_id: string;
  name: string;
  target: string;
  method: MonitorMethod;
  timeout_seconds: number;
  expected_status_codes: number[] | null;
  keyword: string | null;
  failure_threshold: number;
  state: MonitorState;
  consecutive_failures: number;
  open_incident_id: string | null;
}

/** The URL as an incident shows it: without its query or fragment, which may hold a token. */
const shownUrl = (raw: string) => {
  const u = new URL(raw);
  return `${u.origin}${u.pathname}`;
};

/**
 * HTTP monitor checks (issue 14). A monitor's outage is an alert event of sender `monitor`, so its
 * incident opens, pages and resolves through the same routing and outbox as ingested alerts, as a
 * missed heartbeat's does.
 */
export function createMonitorActivities({ orm, monitors }: { orm: MikroORM; monitors?: { allowPrivate: boolean } }) {
  const allowPrivate = monitors?.allowPrivate ?? false;

  const item = (m: MonitorRow, action: IngestItem['action'], result: ProbeResult | null): IngestItem => ({
    action,
    title: `Monitor "${m.name}" is down: ${result?.error ?? 'check failed'}`.slice(0, 255),
    message:
      result &&
      `${m.method} ${shownUrl(m.target)} failed ${m.failure_threshold} check(s) in a row: ${result.error}${result.statusCode ? ` (HTTP ${result.statusCode})` : ''}.`,
    description: null,
    severity: 'HIGH',
    dedupKey: `monitor:${m.id}`,
    sender: 'monitor',
    metadata: { monitor_id: m.id, url: shownUrl(m.target) },
  });

  const load = (db: ReturnType<typeof knexOf>, monitorId: string) =>
    db('monitors as m')
      .join('services as s', 's.id', 'm.service_id')
      .select<MonitorRow>(
        'm.id',
        'm.organization_id',
        'm.service_id',
        's.team_id',
        'm.name',
        'm.target',
        'm.method',
        'm.timeout_seconds',
        'm.expected_status_codes',
        'm.keyword',
        'm.failure_threshold',
        'm.state',
        'm.consecutive_failures',
        'm.open_incident_id',
      )
      .where('m.id', monitorId);

  /**
   * Checks the monitor's URL now and records the result (`checkId` makes a retried attempt a
   * no-op once one has recorded): the check row, the monitor's state, and its incident opened after
   * `failure_threshold` consecutive failures or resolved by the first success after.
   */
  async function checkMonitor({ monitorId, checkId }: { monitorId: string; checkId: string }): Promise<MonitorCheckOutcome> {
    const db = knexOf(orm);
    const recorded = await db('monitor_checks').where({ id: checkId }).first('ok');
    if (recorded) return { outcome: 'checked', ok: recorded.ok as boolean };
    const before = await load(db, monitorId).first();
    if (!before) return { outcome: 'gone' };
    const result = await probe({
      url: before.target,
      method: before.method,
      timeoutMs: before.timeout_seconds * 1000,
      expectedStatusCodes: before.expected_status_codes,
      keyword: before.keyword,
      allowPrivate,
    });
    return db.transaction(async (trx) => {
      const m = await load(trx, monitorId).forUpdate('m').first();
      if (!m) return { outcome: 'gone' as const };
      const now = new Date();
      await trx('monitor_checks').insert({
        id: checkId,
        monitor_id: m.id,
        organization_id: m.organization_id,
        checked_at: now,
        ok: result.ok,
        status_code: result.statusCode,
        latency_ms: result.latencyMs,
        error: result.error,
      });
      const change = applyCheck(
        { state: m.state, consecutiveFailures: m.consecutive_failures, incidentOpen: m.open_incident_id !== null },
        result.ok,
        m.failure_threshold,
      );
      const source: SourceRef = { id: m.id, organizationId: m.organization_id, serviceId: m.service_id, teamId: m.team_id };
      let openIncidentId = m.open_incident_id;
      if (change.action === 'open') {
        const open = await trx('incidents')
          .where({ service_id: m.service_id, dedup_key: `monitor:${m.id}` })
          .whereIn('status', OPEN_STATUSES)
          .first('id');
        openIncidentId =
          (open?.id as string | undefined) ??
          (await storeTriggers(trx, [{ source, item: item(m, 'trigger', result), eventId: randomUUID() }], now))[0].incidentId;
      } else if (change.action === 'resolve') {
        await storeResolve(trx, source, item(m, 'resolve', null), randomUUID(), now);
        openIncidentId = null;
      }
      await trx('monitors')
        .update({ state: change.next.state, consecutive_failures: change.next.consecutiveFailures, last_checked_at: now, open_incident_id: openIncidentId })
        .where({ id: m.id });
      return { outcome: 'checked' as const, ok: result.ok };
    });
  }

  return { checkMonitor };
}
