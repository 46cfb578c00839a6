import { randomUUID } from 'node:crypto';
import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { isUuid } from '../../domain/ids';
import { knexOf } from '../../db/knex';
import { iso } from '../../db/timestamps';
import { recordAudit, type AuditActor } from '../audit';
import { conflict, DomainError, invalid, notFound } from '../errors';
import { getEscalationPolicy } from '../paging/escalation-policies';
import { teamBelongsTo } from './workspaces';
import { customerMonitorJson, monitorViews, type CustomerMonitorJson } from '../monitors/views';

/** Services, monitors and alert sources: what alerts are routed by. */

interface ServiceRow {
  id: string;
  name: string;
  description: string | null;
  team_id: string;
  escalation_policy_id?: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** A service as the customer API shows it. */
const serviceJson = (r: ServiceRow) => ({
  id: r.id,
  name: r.name,
  description: r.description,
  owning_team_id: r.team_id,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});
export type ServiceJson = ReturnType<typeof serviceJson>;

/** A service as the dashboard shows it: the customer API's fields and the policy it pages with. */
const serviceDetailJson = (r: ServiceRow) => ({ ...serviceJson(r), escalation_policy_id: r.escalation_policy_id ?? null });
export type ServiceDetailJson = ReturnType<typeof serviceDetailJson>;

/** The escalation policy of this workspace a body names, or a 400 naming the field. */
async function policyIn(orm: MikroORM, organizationId: string, policyId: string): Promise<string> {
  try {
    return (await getEscalationPolicy(orm, policyId, organizationId)).id;
  } catch (err) {
    if (err instanceof DomainError && (err.kind === 'not_found' || err.kind === 'invalid')) throw invalid(`escalation_policy_id: ${err.message}`);
    throw err;
  }
}

async function teamIn(orm: MikroORM, organizationId: string, teamId: string): Promise<string> {
  if (!isUuid(teamId) || !(await teamBelongsTo(orm, organizationId, teamId))) throw invalid(`team_id: team ${teamId} is not a team of this workspace`);
  return teamId;
}

/**
 * Creates a service owned by a team of the workspace, with an escalation policy of the same
 * workspace when one is named. With `audit`, the `service.create` entry lands in the same transaction.
 */
export async function createService(
  orm: MikroORM,
  input: { organizationId: string; teamId: string; name: string; description?: string | null; escalationPolicyId?: string | null },
  audit?: AuditActor,
): Promise<ServiceDetailJson> {
  await teamIn(orm, input.organizationId, input.teamId);
  const policyId = input.escalationPolicyId ? await policyIn(orm, input.organizationId, input.escalationPolicyId) : null;
  return knexOf(orm).transaction((trx) => insertService(trx, { ...input, escalationPolicyId: policyId }, audit));
}

/** Writes a service whose team and policy were checked, with its audit entry, in the caller's transaction. */
export async function insertService(
  trx: Knex,
  input: { organizationId: string; teamId: string; name: string; description?: string | null; escalationPolicyId: string | null },
  audit?: AuditActor,
): Promise<ServiceDetailJson> {
  const now = new Date();
  const row = {
    id: randomUUID(),
    organization_id: input.organizationId,
    team_id: input.teamId,
    name: input.name,
    description: input.description ?? null,
    escalation_policy_id: input.escalationPolicyId,
    created_at: now,
    updated_at: now,
  };
  await trx('services').insert(row);
  if (audit) {
    const details = { name: row.name, team_id: row.team_id, escalation_policy_id: row.escalation_policy_id };
    await recordAudit(trx, { organizationId: input.organizationId, actor: audit, action: 'service.create', targetType: 'service', targetId: row.id, details });
  }
  return serviceDetailJson(row);
}

const SERVICE_COLUMNS = ['id', 'name', 'description', 'team_id', 'escalation_policy_id', 'created_at', 'updated_at'];

export async function listServices(orm: MikroORM, organizationId: string): Promise<ServiceJson[]> {
  return (await serviceRows(orm, organizationId)).map(serviceJson);
}

/** The workspace's services with their escalation policies, oldest first. */
export async function listServiceDetails(orm: MikroORM, organizationId: string): Promise<ServiceDetailJson[]> {
  return (await serviceRows(orm, organizationId)).map(serviceDetailJson);
}

const serviceRows = (orm: MikroORM, organizationId: string): Promise<ServiceRow[]> =>
  knexOf(orm)('services')
    .select(SERVICE_COLUMNS)
    .where({ organization_id: organizationId })
    .orderBy([{ column: 'created_at' }, { column: 'id' }]);

async function serviceRow(db: Knex, organizationId: string, id: string, lock = false): Promise<ServiceRow> {
  const q = db('services')
    .select(SERVICE_COLUMNS)
    .where({ id: isUuid(id) ? id : null, organization_id: organizationId });
  const row = await (lock ? q.forUpdate() : q).first();
  if (!row) throw notFound(`service ${id} not found`);
  return row;
}

/** A service of this workspace; another workspace's service is simply not found. */
export async function getService(orm: MikroORM, organizationId: string, id: string): Promise<ServiceJson> {
  return serviceJson(await serviceRow(knexOf(orm), organizationId, id));
}

/** A service of this workspace with its escalation policy; another workspace's is not found. */
export async function getServiceDetail(orm: MikroORM, organizationId: string, id: string): Promise<ServiceDetailJson> {
  return serviceDetailJson(await serviceRow(knexOf(orm), organizationId, id));
}

/** What an update may change; `escalationPolicyId: null` clears the policy. */
export interface ServicePatch {
  name?: string;
  description?: string | null;
  teamId?: string;
  escalationPolicyId?: string | null;
}

/** Changes what the patch names; the entry (`service.update`, the fields changed) lands in the same transaction. */
export async function updateService(
  orm: MikroORM,
  input: { organizationId: string; id: string; patch: ServicePatch },
  audit?: AuditActor,
): Promise<ServiceDetailJson> {
  const { organizationId, id, patch } = input;
  if (patch.teamId !== undefined) await teamIn(orm, organizationId, patch.teamId);
  const policyId = patch.escalationPolicyId ? await policyIn(orm, organizationId, patch.escalationPolicyId) : patch.escalationPolicyId;
  return knexOf(orm).transaction(async (trx) => {
    const before = await serviceRow(trx, organizationId, id, true);
    const change: Record<string, unknown> = {};
    if (patch.name !== undefined) change.name = patch.name;
    if (patch.description !== undefined) change.description = patch.description;
    if (patch.teamId !== undefined) change.team_id = patch.teamId;
    if (policyId !== undefined) change.escalation_policy_id = policyId;
    const [after] = (await trx('services')
      .update({ ...change, updated_at: new Date() })
      .where({ id: before.id })
      .returning(SERVICE_COLUMNS)) as ServiceRow[];
    if (audit) {
      const details = {
        name: after.name,
        changed: Object.keys(change),
        ...(change.team_id !== undefined && { from_team_id: before.team_id, to_team_id: after.team_id }),
        ...(policyId !== undefined && { escalation_policy_id: policyId }),
      };
      await recordAudit(trx, { organizationId, actor: audit, action: 'service.update', targetType: 'service', targetId: before.id, details });
    }
    return serviceDetailJson(after);
  });
}

/** Incident statuses a service may not be deleted with (docs/architecture.md, "Incidents": anything not RESOLVED or CLOSED). */
const DONE_STATUSES = ['RESOLVED', 'CLOSED'];

/**
 * What hangs off a service outside this module (its sources, its heartbeats), retired or removed
 * in the deleting transaction; passed in because the ingest module is built on this one.
 */
export type ServiceDependents = (trx: Knex.Transaction, serviceId: string) => Promise<Record<string, number>>;

/**
 * Deletes a service with no open incident (409 `service_has_open_incidents` otherwise): its
 * dependents go with it (sources retired, heartbeats deleted, monitors removed) and its incidents
 * stay readable. The service row is locked first, so two deletes cannot interleave.
 */
export async function deleteService(
  orm: MikroORM,
  input: { organizationId: string; id: string },
  dependents: ServiceDependents,
  audit?: AuditActor,
): Promise<{ id: string; deleted: true } & Record<string, unknown>> {
  return knexOf(orm).transaction(async (trx) => {
    const service = await serviceRow(trx, input.organizationId, input.id, true);
    const [{ n }] = await trx('incidents').count({ n: '*' }).where({ service_id: service.id }).whereNotIn('status', DONE_STATUSES);
    if (Number(n) > 0) {
      throw conflict(`service ${service.name} has ${n} open incident(s): resolve or close them before deleting it`, 'service_has_open_incidents');
    }
    const removed = await dependents(trx, service.id);
    // A monitor's workflow ends by itself at its next check, finding its row gone.
    await trx('monitor_checks')
      .delete()
      .whereIn('monitor_id', trx('monitors').select('id').where({ service_id: service.id }));
    const monitors = await trx('monitors').delete().where({ service_id: service.id });
    await trx('services').delete().where({ id: service.id });
    const counts = { ...removed, monitors_deleted: monitors };
    if (audit)
      await recordAudit(trx, {
        organizationId: input.organizationId,
        actor: audit,
        action: 'service.delete',
        targetType: 'service',
        targetId: service.id,
        details: { name: service.name, team_id: service.team_id, ...counts },
      });
    return { id: service.id, deleted: true as const, ...counts };
  });
}

/** A monitor as the customer API shows it (src/services/monitors/views.ts). */
export type MonitorJson = CustomerMonitorJson;

/** The workspace's monitors with their status, last check and uptime over 24 h, oldest first. */
export async function listMonitors(orm: MikroORM, organizationId: string): Promise<MonitorJson[]> {
  return (await monitorViews(knexOf(orm), { organization_id: organizationId })).map(customerMonitorJson);
}

/** One of the workspace's monitors; another workspace's, or a bad id, is not found. */
export async function getMonitor(orm: MikroORM, organizationId: string, id: string): Promise<MonitorJson> {
  const [row] = isUuid(id) ? await monitorViews(knexOf(orm), { organization_id: organizationId, id }) : [];
  if (!row) throw notFound(`monitor ${id} not found`);
  return customerMonitorJson(row);
}

/**
 * Adds a monitor record and nothing else: no validation of its target, no workflow (the
 * dashboard's `createHttpMonitor` in src/services/monitors does both). Tests and seeds use it.
 */
export async function createMonitor(
  orm: MikroORM,
  input: {
    organizationId: string;
    serviceId: string;
    name: string;
    type: string;
    target: string;
    intervalSeconds: number;
    method?: string;
    timeoutSeconds?: number;
    expectedStatusCodes?: number[] | null;
    keyword?: string | null;
    failureThreshold?: number;
  },
): Promise<MonitorJson> {
  await getService(orm, input.organizationId, input.serviceId);
  const now = new Date();
  const id = randomUUID();
  await knexOf(orm)('monitors').insert({
    id,
    organization_id: input.organizationId,
    service_id: input.serviceId,
    name: input.name,
    type: input.type,
    target: input.target,
    interval_seconds: input.intervalSeconds,
    status: 'ACTIVE',
    method: input.method ?? 'GET',
    timeout_seconds: input.timeoutSeconds ?? 10,
    expected_status_codes: input.expectedStatusCodes ? JSON.stringify(input.expectedStatusCodes) : null,
    keyword: input.keyword ?? null,
    failure_threshold: input.failureThreshold ?? 3,
    created_at: now,
    updated_at: now,
  });
  return getMonitor(orm, input.organizationId, id);
}

/** The workspace a service belongs to, for commands that name only the service. */
export async function workspaceOfService(orm: MikroORM, serviceId: string): Promise<string> {
  if (!isUuid(serviceId)) throw invalid('--service must be a service id (UUID)');
  const service = await knexOf(orm)('services').select('organization_id').where({ id: serviceId }).first();
  if (!service) throw notFound(`service ${serviceId} not found`);
  return service.organization_id as string;
}
