import { randomUUID } from 'node:crypto';
import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import type { EscalationStep } from '../../db/entities/escalation-policy';
import { parseWith, policyInputSchema, targetsWithPaths, uuidField, type PolicyInput, type ValidPolicy } from '../../domain/paging/config';
import { canonicalJson } from '../../domain/ingest/canonical-json';
import { NEVER_PAGED_ROLE } from '../../domain/roles';
import { knexOf } from '../../db/knex';
import { recordAudit, SYSTEM_CLI } from '../audit';
import type { ChangeOptions } from './changes';
import { conflict, invalid, notFound } from '../errors';
import { getOrganization } from '../workspace/workspaces';

/** Escalation policies: ordered steps of targets, and which policy a service pages with. */

interface PolicyRow {
  id: string;
  organization_id: string;
  name: string;
  steps: EscalationStep[];
  repeat: number;
  ack_timeout_seconds: number | null;
}

const policyJson = (r: PolicyRow) => ({ id: r.id, name: r.name, steps: r.steps, repeat: r.repeat, ack_timeout_seconds: r.ack_timeout_seconds });
export type EscalationPolicyJson = ReturnType<typeof policyJson>;

const COLUMNS = ['id', 'organization_id', 'name', 'steps', 'repeat', 'ack_timeout_seconds'];

/** Each target that is not in the workspace, named by where it sits in the steps. */
async function foreignTargets(orm: MikroORM, organizationId: string, steps: ValidPolicy['steps']): Promise<string[]> {
  const targets = targetsWithPaths(steps);
  const idsOf = (type: string) => [...new Set(targets.filter((t) => t.type === type).map((t) => t.id))];
  const knex = knexOf(orm);
  const [users, schedules, teams] = await Promise.all([
    knex('memberships').select('user_id as id', 'role').where({ organization_id: organizationId }).whereIn('user_id', idsOf('user')),
    knex('schedules').select('id').where({ organization_id: organizationId }).whereIn('id', idsOf('schedule')),
    knex('teams').select('id').where({ organization_id: organizationId }).whereIn('id', idsOf('team')),
  ]);
  // A Stakeholder is a member who is never paged (docs/importers.md, "Roles"): no step names one.
  const stakeholders = new Set(users.filter((r) => r.role === NEVER_PAGED_ROLE).map((r) => `user:${r.id}`));
  const known = new Set([...users.map((r) => `user:${r.id}`), ...schedules.map((r) => `schedule:${r.id}`), ...teams.map((r) => `team:${r.id}`)]);
  const what = { user: 'is not a member of this workspace', schedule: 'is not a schedule of this workspace', team: 'is not a team of this workspace' };
  return targets
    .filter((t) => !known.has(`${t.type}:${t.id}`) || stakeholders.has(`${t.type}:${t.id}`))
    .map((t) => `${t.path}: ${t.type} ${t.id} ${stakeholders.has(`user:${t.id}`) ? 'is a Stakeholder, who reads but is never paged' : what[t.type]}`);
}

/**
 * Each of a responder's targets (docs/responding.md) that is not in the workspace or is never
 * paged, named by its place in the list (`targets[1]: team … is not a team of this workspace`).
 */
export async function targetsOutsideWorkspace(orm: MikroORM, organizationId: string, targets: ValidPolicy['steps'][number]['targets']): Promise<string[]> {
  const bad = await foreignTargets(orm, organizationId, [{ delay_seconds: 0, targets }]);
  return bad.map((b) => b.replace(/^steps\[0\]\./, ''));
}

const auditDetails = (p: Pick<PolicyRow, 'name' | 'steps' | 'repeat' | 'ack_timeout_seconds'>) => ({
  name: p.name,
  steps: p.steps.length,
  repeat: p.repeat,
  ack_timeout_seconds: p.ack_timeout_seconds,
});

/** Parses a whole policy and checks every target belongs to the workspace (a draft to simulate, too). */
export async function validPolicy(orm: MikroORM, input: PolicyInput): Promise<ValidPolicy> {
  const parsed = parseWith(policyInputSchema, input);
  if (!parsed.ok) throw invalid(parsed.message);
  const p = parsed.value;
  await getOrganization(orm, p.organizationId);
  const bad = await foreignTargets(orm, p.organizationId, p.steps);
  if (bad.length) throw invalid(bad.join('; '), 'unknown_target');
  return p;
}

/** Creates a policy after checking every target belongs to the workspace; nothing is written otherwise. */
export async function createEscalationPolicy(orm: MikroORM, input: PolicyInput, opts: ChangeOptions = {}): Promise<EscalationPolicyJson> {
  const p = await validPolicy(orm, input);
  return knexOf(orm).transaction((trx) => insertEscalationPolicy(trx, p, opts));
}

/** Writes a policy already checked (its targets in the workspace) and its audit entry, in the caller's transaction. */
export async function insertEscalationPolicy(trx: Knex, p: ValidPolicy, opts: ChangeOptions = {}): Promise<EscalationPolicyJson> {
  const now = new Date();
  const row = { id: randomUUID(), organization_id: p.organizationId, name: p.name, steps: p.steps, repeat: p.repeat, ack_timeout_seconds: p.ackTimeoutSeconds };
  // jsonb from a JS array needs explicit serialisation: pg would send it as a Postgres array.
  await trx('escalation_policies').insert({ ...row, steps: JSON.stringify(p.steps), created_at: now, updated_at: now });
  await recordAudit(trx, {
    organizationId: p.organizationId,
    actor: opts.actor ?? SYSTEM_CLI,
    action: 'escalation_policy.create',
    targetType: 'escalation_policy',
    targetId: row.id,
    details: auditDetails(row),
  });
  return policyJson(row);
}

/** A workspace's policies by name, each with the ids of the services paging with it. */
export async function listEscalationPolicies(orm: MikroORM, organizationId: string): Promise<Array<EscalationPolicyJson & { service_ids: string[] }>> {
  const knex = knexOf(orm);
  const [rows, services] = await Promise.all([
    knex('escalation_policies')
      .select(COLUMNS)
      .where({ organization_id: organizationId })
      .orderBy([{ column: 'name' }, { column: 'id' }]),
    knex('services').select('id', 'escalation_policy_id').where({ organization_id: organizationId }).whereNotNull('escalation_policy_id').orderBy('id'),
  ]);
  return rows.map((r: PolicyRow) => ({ ...policyJson(r), service_ids: services.filter((s) => s.escalation_policy_id === r.id).map((s) => s.id as string) }));
}

/** What an update may change; absent fields keep their value. */
export interface PolicyChanges {
  name?: string;
  steps?: unknown;
  repeat?: number;
  ackTimeoutSeconds?: number | null;
}

/** Changes a policy of the workspace, checked as a whole exactly as on creation. */
export async function updateEscalationPolicy(
  orm: MikroORM,
  input: { id: string; organizationId: string; changes: PolicyChanges },
  opts: ChangeOptions = {},
): Promise<EscalationPolicyJson> {
  const current = await getEscalationPolicy(orm, input.id, input.organizationId);
  const c = input.changes;
  const p = await validPolicy(orm, {
    organizationId: input.organizationId,
    name: c.name ?? current.name,
    steps: (c.steps ?? current.steps) as PolicyInput['steps'],
    repeat: c.repeat ?? current.repeat,
    ackTimeoutSeconds: c.ackTimeoutSeconds === undefined ? current.ack_timeout_seconds : c.ackTimeoutSeconds,
  });
  const row = {
    id: current.id,
    organization_id: current.organization_id,
    name: p.name,
    steps: p.steps,
    repeat: p.repeat,
    ack_timeout_seconds: p.ackTimeoutSeconds,
  };
  const changed = (['name', 'steps', 'repeat', 'ack_timeout_seconds'] as const).filter((k) => canonicalJson(row[k]) !== canonicalJson(current[k]));
  await knexOf(orm).transaction(async (trx) => {
    await trx('escalation_policies')
      .update({ name: row.name, steps: JSON.stringify(row.steps), repeat: row.repeat, ack_timeout_seconds: row.ack_timeout_seconds, updated_at: new Date() })
      .where({ id: row.id });
    await recordAudit(trx, {
      organizationId: row.organization_id,
      actor: opts.actor ?? SYSTEM_CLI,
      action: 'escalation_policy.update',
      targetType: 'escalation_policy',
      targetId: row.id,
      details: { ...auditDetails(row), changed },
    });
  });
  return policyJson(row);
}

/** Deletes a policy no service pages with; one in use is a conflict naming the services. */
export async function deleteEscalationPolicy(
  orm: MikroORM,
  input: { id: string; organizationId: string },
  opts: ChangeOptions = {},
): Promise<{ id: string; deleted: true }> {
  const policy = await getEscalationPolicy(orm, input.id, input.organizationId);
  await knexOf(orm).transaction(async (trx) => {
    // Lock the policy so a service cannot be given it between the check and the delete.
    await trx('escalation_policies').select('id').where({ id: policy.id }).forUpdate();
    const services: Array<{ id: string; name: string }> = await trx('services').select('id', 'name').where({ escalation_policy_id: policy.id }).orderBy('name');
    if (services.length) {
      throw conflict(
        `escalation policy ${policy.name} is used by ${services.length} service(s): ${services.map((s) => s.name).join(', ')}; give them another policy first`,
        'policy_in_use',
      );
    }
    await trx('escalation_policies').where({ id: policy.id }).delete();
    await recordAudit(trx, {
      organizationId: policy.organization_id,
      actor: opts.actor ?? SYSTEM_CLI,
      action: 'escalation_policy.delete',
      targetType: 'escalation_policy',
      targetId: policy.id,
      details: { name: policy.name },
    });
  });
  return { id: policy.id, deleted: true };
}

/** A policy by id; with `organizationId`, another workspace's policy is simply not found. */
export async function getEscalationPolicy(orm: MikroORM, id: string, organizationId?: string): Promise<EscalationPolicyJson & { organization_id: string }> {
  const parsed = parseWith(uuidField('an escalation policy id'), id);
  if (!parsed.ok) throw invalid(`policy: ${parsed.message}`);
  const row = await knexOf(orm)('escalation_policies')
    .select(COLUMNS)
    .where({ id: parsed.value, ...(organizationId ? { organization_id: organizationId } : {}) })
    .first();
  if (!row) throw notFound(`escalation policy ${parsed.value} not found`);
  return { ...policyJson(row), organization_id: row.organization_id };
}

/** Gives a service its policy (or none with null); both must be in the same workspace. */
export async function setServicePolicy(orm: MikroORM, input: { serviceId: string; policyId: string | null }) {
  const serviceId = parseWith(uuidField('a service id'), input.serviceId);
  if (!serviceId.ok) throw invalid(`service: ${serviceId.message}`);
  const service = await knexOf(orm)('services').select('id', 'organization_id').where({ id: serviceId.value }).first();
  if (!service) throw notFound(`service ${serviceId.value} not found`);
  const policy = input.policyId === null ? null : await getEscalationPolicy(orm, input.policyId);
  if (policy && policy.organization_id !== service.organization_id) {
    throw invalid(`escalation policy ${policy.id} belongs to another workspace than service ${service.id}`);
  }
  await knexOf(orm)('services')
    .update({ escalation_policy_id: policy?.id ?? null, updated_at: new Date() })
    .where({ id: service.id });
  return { service_id: service.id as string, escalation_policy_id: policy?.id ?? null };
}

/** The policy a service pages with, or null when it has none. */
export async function policyOfService(orm: MikroORM, serviceId: string): Promise<(EscalationPolicyJson & { organization_id: string }) | null> {
  const id = parseWith(uuidField('a service id'), serviceId);
  if (!id.ok) throw invalid(`service: ${id.message}`);
  const service = await knexOf(orm)('services').select('escalation_policy_id').where({ id: id.value }).first();
  if (!service) throw notFound(`service ${id.value} not found`);
  return service.escalation_policy_id ? getEscalationPolicy(orm, service.escalation_policy_id) : null;
}

/**
 * Refuses (409 `schedule_in_use` / `team_in_use`, naming the policies in name order) while a step
 * of the workspace's escalation policies targets this schedule or team: deleting it would leave
 * those steps paging nobody. Call it in the deleting transaction.
 */
export async function refuseWhileTargeted(trx: Knex, organizationId: string, target: { type: 'schedule' | 'team'; id: string; name: string }): Promise<void> {
  const step = JSON.stringify([{ targets: [{ type: target.type, id: target.id }] }]);
  const policies: Array<{ name: string }> = await trx('escalation_policies')
    .select('name')
    .where({ organization_id: organizationId })
    .whereRaw('steps::jsonb @> ?::jsonb', [step])
    .orderBy('name');
  if (policies.length) {
    const names = policies.map((p) => p.name).join(', ');
    throw conflict(
      `${target.type} ${target.name} is a target of ${policies.length} escalation policy(ies): ${names}; remove it from their steps first`,
      `${target.type}_in_use`,
    );
  }
}
