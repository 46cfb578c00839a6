import { randomUUID } from 'node:crypto';
import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import { monitorPauseSignal, monitorScheduleSignal } from '../../contracts/workflows';
import { monitorMinIntervalSeconds, type Plan } from '../../domain/plans';
import { checkMonitorUrl, type MonitorMethod } from '../../domain/monitors/target';
import { isUuid } from '../../domain/ids';
import { knexOf } from '../../db/knex';
import { recordAudit, type AuditActor } from '../audit';
import { forbidden, invalid, notFound } from '../errors';
import { getService } from '../workspace/catalog';
import { dashboardMonitorJson, monitorViews, type DashboardMonitorJson } from './views';
import { signalMonitorWorkflow, startMonitorWorkflow, stopMonitorWorkflow, type MonitorScheduleRow } from './workflows';

/** What bounds monitors beyond their plan: MONITOR_ALLOW_PRIVATE and MONITOR_MIN_INTERVAL_SECONDS. */
export interface MonitorPolicy {
  allowPrivate: boolean;
  minIntervalSeconds: number;
}

/** How an HTTP monitor checks. */
export interface MonitorSettings {
  name: string;
  url: string;
  method: MonitorMethod;
  intervalSeconds: number;
  timeoutSeconds: number;
  /** null: any 2xx. */
  expectedStatusCodes: number[] | null;
  keyword: string | null;
  failureThreshold: number;
}

/** Where monitors reach Temporal. */
export interface MonitorTemporal {
  temporal: Client;
  taskQueue: string;
}

/** The workspace's monitors as the dashboard shows them, oldest first. */
export async function listMonitorDetails(orm: MikroORM, organizationId: string): Promise<DashboardMonitorJson[]> {
  return (await monitorViews(knexOf(orm), { organization_id: organizationId })).map(dashboardMonitorJson);
}

/** One monitor as the dashboard shows it; another workspace's, or a bad id, is not found. */
export async function getMonitorDetail(db: MikroORM | Knex, organizationId: string, id: string): Promise<DashboardMonitorJson> {
  const [row] = isUuid(id) ? await monitorViews('em' in db ? knexOf(db) : db, { organization_id: organizationId, id }) : [];
  if (!row) throw notFound(`monitor ${id} not found`);
  return dashboardMonitorJson(row);
}

/**
 * Refuses settings a monitor may not have: a URL it may not reach as written (400 naming `url`),
 * an interval under the floor or a timeout not under the interval (400), an interval under the
 * plan's minimum (403 `plan_limit_reached`).
 */
function assertAllowed(s: Pick<MonitorSettings, 'url' | 'intervalSeconds' | 'timeoutSeconds'>, plan: Plan, policy: MonitorPolicy): void {
  const target = checkMonitorUrl(s.url, { allowPrivate: policy.allowPrivate });
  if (!target.ok) throw invalid(`url: ${target.message}`);
  if (s.intervalSeconds < policy.minIntervalSeconds) throw invalid(`interval_seconds: must be at least ${policy.minIntervalSeconds}`);
  if (s.timeoutSeconds >= s.intervalSeconds) throw invalid(`timeout_seconds: must be less than interval_seconds (${s.intervalSeconds})`);
  const min = monitorMinIntervalSeconds(plan, policy.minIntervalSeconds);
  if (s.intervalSeconds < min)
    throw forbidden(`interval_seconds: the ${plan} plan checks at most every ${min} s (change the plan for shorter intervals)`, 'plan_limit_reached');
}

const planOf = async (db: Knex, organizationId: string): Promise<Plan> => {
  const org = await db('organizations').select('plan').where({ id: organizationId }).first();
  if (!org) throw notFound(`organization ${organizationId} not found`);
  return org.plan as Plan;
};

/** Settings as the audit log records them (no secret lives in a monitor; the URL's query might: left out). */
const auditDetails = (s: Partial<MonitorSettings> & { serviceId?: string }) => {
  const d: Record<string, unknown> = {};
  if (s.name !== undefined) d.name = s.name;
  if (s.serviceId !== undefined) d.service_id = s.serviceId;
  if (s.url !== undefined) d.url = new URL(s.url).origin + new URL(s.url).pathname;
  if (s.method !== undefined) d.method = s.method;
  if (s.intervalSeconds !== undefined) d.interval_seconds = s.intervalSeconds;
  if (s.timeoutSeconds !== undefined) d.timeout_seconds = s.timeoutSeconds;
  if (s.expectedStatusCodes !== undefined) d.expected_status_codes = s.expectedStatusCodes;
  if (s.keyword !== undefined) d.keyword = s.keyword;
  if (s.failureThreshold !== undefined) d.failure_threshold = s.failureThreshold;
  return d;
};

/**
 * Creates an HTTP monitor on a service and starts its workflow (first check at once). The row and
 * its `monitor.create` entry commit first, so the workflow's first check finds them; if Temporal
 * then cannot start it, both are taken back and the caller hears 503: nothing changed.
 */
export async function createHttpMonitor(
  orm: MikroORM,
  t: MonitorTemporal,
  input: MonitorSettings & { organizationId: string; serviceId: string },
  policy: MonitorPolicy,
  audit?: AuditActor,
): Promise<DashboardMonitorJson> {
  await getService(orm, input.organizationId, input.serviceId);
  const db = knexOf(orm);
  assertAllowed(input, await planOf(db, input.organizationId), policy);
  const now = new Date();
  const row = {
    id: randomUUID(),
    organization_id: input.organizationId,
    service_id: input.serviceId,
    name: input.name,
    type: 'http',
    target: input.url,
    interval_seconds: input.intervalSeconds,
    status: 'ACTIVE',
    method: input.method,
    timeout_seconds: input.timeoutSeconds,
    expected_status_codes: input.expectedStatusCodes ? JSON.stringify(input.expectedStatusCodes) : null,
    keyword: input.keyword,
    failure_threshold: input.failureThreshold,
    state: 'PENDING',
    created_at: now,
    updated_at: now,
  };
  await db.transaction(async (trx) => {
    await trx('monitors').insert(row);
    if (audit)
      await recordAudit(trx, {
        organizationId: input.organizationId,
        actor: audit,
        action: 'monitor.create',
        targetType: 'monitor',
        targetId: row.id,
        details: auditDetails(input),
      });
  });
  try {
    await startMonitorWorkflow(t.temporal, t.taskQueue, row);
  } catch (err) {
    await db.transaction(async (trx) => {
      await trx('monitors').delete().where({ id: row.id });
      await trx('audit_log').delete().where({ organization_id: input.organizationId, target_id: row.id, action: 'monitor.create' });
    });
    throw err;
  }
  return getMonitorDetail(db, input.organizationId, row.id);
}

/** Locks one of the workspace's monitors for a change. */
async function lockMonitor(trx: Knex.Transaction, organizationId: string, id: string) {
  const m = isUuid(id) ? await trx('monitors').select('*').where({ id, organization_id: organizationId }).forUpdate().first() : undefined;
  if (!m) throw notFound(`monitor ${id} not found`);
  return m as MonitorScheduleRow & { name: string; service_id: string; target: string; type: string };
}

/**
 * Changes some of a monitor's settings (service, name, URL, method, interval, timeout, expected
 * statuses, keyword, threshold), checked as at creation against the result. Its workflow is told
 * the new interval and timeout (the rest is read at each check) in the same transaction: with
 * Temporal away, nothing changes. `monitor.update` records the fields given.
 */
export async function updateMonitor(
  orm: MikroORM,
  t: MonitorTemporal,
  input: { organizationId: string; id: string; changes: Partial<MonitorSettings> & { serviceId?: string } },
  policy: MonitorPolicy,
  audit?: AuditActor,
): Promise<DashboardMonitorJson> {
  const { changes } = input;
  if (changes.serviceId !== undefined) await getService(orm, input.organizationId, changes.serviceId);
  return knexOf(orm).transaction(async (trx) => {
    const m = await lockMonitor(trx, input.organizationId, input.id);
    const next = {
      url: changes.url ?? m.target,
      intervalSeconds: changes.intervalSeconds ?? m.interval_seconds,
      timeoutSeconds: changes.timeoutSeconds ?? m.timeout_seconds,
    };
    assertAllowed(next, await planOf(trx, input.organizationId), policy);
    const set: Record<string, unknown> = { updated_at: new Date() };
    if (changes.serviceId !== undefined) set.service_id = changes.serviceId;
    if (changes.name !== undefined) set.name = changes.name;
    if (changes.url !== undefined) set.target = changes.url;
    if (changes.method !== undefined) set.method = changes.method;
    if (changes.intervalSeconds !== undefined) set.interval_seconds = changes.intervalSeconds;
    if (changes.timeoutSeconds !== undefined) set.timeout_seconds = changes.timeoutSeconds;
    if (changes.expectedStatusCodes !== undefined) set.expected_status_codes = changes.expectedStatusCodes ? JSON.stringify(changes.expectedStatusCodes) : null;
    if (changes.keyword !== undefined) set.keyword = changes.keyword;
    if (changes.failureThreshold !== undefined) set.failure_threshold = changes.failureThreshold;
    await trx('monitors').update(set).where({ id: m.id });
    if (audit)
      await recordAudit(trx, {
        organizationId: input.organizationId,
        actor: audit,
        action: 'monitor.update',
        targetType: 'monitor',
        targetId: m.id,
        details: { name: changes.name ?? m.name, ...auditDetails(changes) },
      });
    const schedule = { intervalSeconds: next.intervalSeconds, timeoutSeconds: next.timeoutSeconds };
    if (m.type === 'http')
      await signalMonitorWorkflow(
        t.temporal,
        t.taskQueue,
        { ...m, interval_seconds: schedule.intervalSeconds, timeout_seconds: schedule.timeoutSeconds },
        monitorScheduleSignal,
        schedule,
      );
    return getMonitorDetail(trx, input.organizationId, m.id);
  });
}

/**
 * Pauses (no checks, no incidents) or resumes (a check at once) a monitor: the row and its
 * workflow, both or neither. A change, not a repeat, records `monitor.pause` or `monitor.resume`.
 */
export async function setMonitorPaused(
  orm: MikroORM,
  t: MonitorTemporal,
  input: { organizationId: string; id: string; paused: boolean },
  audit?: AuditActor,
): Promise<{ id: string; status: 'ACTIVE' | 'PAUSED' }> {
  const status = input.paused ? 'PAUSED' : 'ACTIVE';
  return knexOf(orm).transaction(async (trx) => {
    const m = await lockMonitor(trx, input.organizationId, input.id);
    await trx('monitors').update({ status, updated_at: new Date() }).where({ id: m.id });
    if (m.type === 'http') await signalMonitorWorkflow(t.temporal, t.taskQueue, { ...m, status }, monitorPauseSignal, { paused: input.paused });
    if (audit && m.status !== status) {
      await recordAudit(trx, {
        organizationId: input.organizationId,
        actor: audit,
        action: input.paused ? 'monitor.pause' : 'monitor.resume',
        targetType: 'monitor',
        targetId: m.id,
        details: { name: m.name },
      });
    }
    return { id: m.id, status };
  });
}

/**
 * Deletes a monitor and its checks, and stops its workflow, all or nothing (the workflow is
 * stopped before the deletion commits; with Temporal away nothing changes). An incident it opened
 * stays, for people to resolve.
 */
export async function deleteMonitor(orm: MikroORM, temporal: Client | undefined, input: { organizationId: string; id: string }, audit?: AuditActor) {
  return knexOf(orm).transaction(async (trx) => {
    const m = await lockMonitor(trx, input.organizationId, input.id);
    await trx('monitors').delete().where({ id: m.id });
    const checks = await trx('monitor_checks').delete().where({ monitor_id: m.id });
    await stopMonitorWorkflow(temporal, m.id);
    if (audit)
      await recordAudit(trx, {
        organizationId: input.organizationId,
        actor: audit,
        action: 'monitor.delete',
        targetType: 'monitor',
        targetId: m.id,
        details: { name: m.name, service_id: m.service_id, checks_deleted: checks },
      });
    return { id: m.id, deleted: true as const };
  });
}
