import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { EscalationStep } from '../../db/entities/escalation-policy';
import { parseWith, policyInputSchema, targetsWithPaths, uuidField, type PolicyInput, type ValidPolicy } from '../../domain/paging/config';
import { knexOf } from '../../db/knex';
import { invalid, notFound } from '../errors';
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
    knex('memberships').select('user_id as id').where({ organization_id: organizationId }).whereIn('user_id', idsOf('user')),
    knex('schedules').select('id').where({ organization_id: organizationId }).whereIn('id', idsOf('schedule')),
    knex('teams').select('id').where({ organization_id: organizationId }).whereIn('id', idsOf('team')),
  ]);
  const known = new Set([...users.map((r) => `user:${r.id}`), ...schedules.map((r) => `schedule:${r.id}`), ...teams.map((r) => `team:${r.id}`)]);
  const what = { user: 'is not a member of this workspace', schedule: 'is not a schedule of this workspace', team: 'is not a team of this workspace' };
  return targets.filter((t) => !known.has(`${t.type}:${t.id}`)).map((t) => `${t.path}: ${t.type} ${t.id} ${what[t.type]}`);
}

/** Creates a policy after checking every target belongs to the workspace; nothing is written otherwise. */
export async function createEscalationPolicy(orm: MikroORM, input: PolicyInput): Promise<EscalationPolicyJson> {
  const parsed = parseWith(policyInputSchema, input);
  if (!parsed.ok) throw invalid(parsed.message);
  const p = parsed.value;
  await getOrganization(orm, p.organizationId);
  const bad = await foreignTargets(orm, p.organizationId, p.steps);
  if (bad.length) throw invalid(bad.join('; '), 'unknown_target');
  const now = new Date();
  const row = { id: randomUUID(), organization_id: p.organizationId, name: p.name, steps: p.steps, repeat: p.repeat, ack_timeout_seconds: p.ackTimeoutSeconds };
  // jsonb from a JS array needs explicit serialisation: pg would send it as a Postgres array.
  await knexOf(orm)('escalation_policies').insert({ ...row, steps: JSON.stringify(p.steps), created_at: now, updated_at: now });
  return policyJson(row);
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
  await knexOf(orm)('services').update({ escalation_policy_id: policy?.id ?? null, updated_at: new Date() }).where({ id: service.id });
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
