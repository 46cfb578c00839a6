import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { parseWith, policyInputSchema } from '../../domain/paging/config';
import { isUniqueViolation, knexOf } from '../../db/knex';
import { SYSTEM_CLI, type AuditActor } from '../audit';
import type { Plan } from '../../domain/plans';
import { insertEscalationPolicy, writeContactMethod, writeRule } from '../paging';
import { insertService } from './catalog';
import { insertTeamMember } from './team-members';
import { insertTeam } from './teams';
import { insertOrganization } from './workspaces';

/**
 * What a new workspace starts with, so its first alert pages someone (docs/api/members-and-teams.md, "A new
 * workspace is ready to page"): a team named after the workspace, a "Default service" it owns, and
 * a "Default" escalation policy paging that team at once, set on the service. The owner is in the
 * team and reached on their account email at once.
 */
export const READY_WORKSPACE = {
  serviceName: 'Default service',
  policyName: 'Default',
  /** Nobody acknowledged: the team is paged again after this long… */
  stepDelaySeconds: 300,
  /** …this many more times (at 0, 5 and 10 minutes in all). */
  repeat: 2,
} as const;

export interface ReadyWorkspace {
  team_id: string;
  service_id: string;
  escalation_policy_id: string;
}

/** How the owner is paged: in the team, on which contact method, by which rule (null when their address is another workspace's contact). */
export interface OwnerOnCall {
  team_member: true;
  contact_method: { id: string; type: string; address: string } | null;
  notification_rule: { id: string; delay_seconds: number } | null;
}

/** Makes the workspace ready to page, in the caller's transaction (sign-up's, so a refused sign-up leaves nothing). */
export async function prepareWorkspace(
  trx: Knex,
  input: { organizationId: string; name: string; actor: AuditActor; owner?: { id: string; email: string } },
): Promise<ReadyWorkspace & { owner: OwnerOnCall | null }> {
  const { organizationId, actor } = input;
  const team = await insertTeam(trx, { organizationId, audit: actor }, input.name.trim().slice(0, 255));
  const policy = parseWith(policyInputSchema, {
    organizationId,
    name: READY_WORKSPACE.policyName,
    steps: [{ delay_seconds: READY_WORKSPACE.stepDelaySeconds, targets: [{ type: 'team', id: team.id }] }],
    repeat: READY_WORKSPACE.repeat,
  });
  if (!policy.ok) throw new Error(`the default escalation policy does not validate: ${policy.message}`);
  const { id: policyId } = await insertEscalationPolicy(trx, policy.value, { actor });
  const service = await insertService(trx, { organizationId, teamId: team.id, name: READY_WORKSPACE.serviceName, escalationPolicyId: policyId }, actor);
  const owner = input.owner ? await putOnCall(trx, { organizationId, teamId: team.id, user: input.owner, actor }) : null;
  return { team_id: team.id, service_id: service.id, escalation_policy_id: policyId, owner };
}

/** `klaxon org create`: a workspace and what makes it ready, in one transaction (nobody in the team yet). */
export async function createReadyWorkspace(orm: MikroORM, input: { name: string; plan: Plan }, actor: AuditActor = SYSTEM_CLI) {
  return knexOf(orm).transaction(async (trx) => {
    const org = await insertOrganization(trx, input);
    const { owner: _none, ...ready } = await prepareWorkspace(trx, { organizationId: org.id, name: org.name, actor });
    return { ...org, ...ready };
  });
}

/**
 * Puts a member in the team and pages them on their account email at once: an email contact
 * method (verified: it is the address they signed up with) and a rule at 0 s. Contact addresses
 * are unique per person across workspaces, so an address already used in another workspace
 * leaves them in the team with their own rules (none yet here: their email at once).
 */
async function putOnCall(
  trx: Knex,
  input: { organizationId: string; teamId: string; user: { id: string; email: string }; actor: AuditActor },
): Promise<OwnerOnCall> {
  const { organizationId, user, actor } = input;
  await insertTeamMember(trx, { organizationId, audit: actor }, input.teamId, user.id);
  const taken = await trx('contact_methods').select('id').where({ user_id: user.id, type: 'email', address: user.email }).first();
  if (taken) return { team_member: true, contact_method: null, notification_rule: null };
  const contact = await writeContactMethod(
    trx,
    { organizationId, userId: user.id, email: user.email, type: 'email', address: user.email, label: 'Account email' },
    { actor },
  );
  const rule = await writeRule(trx, contact, 0, { actor });
  return {
    team_member: true,
    contact_method: { id: contact.id, type: contact.type, address: contact.address },
    notification_rule: { id: rule.id, delay_seconds: rule.delay_seconds },
  };
}

/**
 * `klaxon org create` makes a ready workspace with nobody in it yet; the first person added to it
 * (`klaxon user add`) becomes its on-call, as a sign-up's owner is. Only while the workspace is as
 * it was made: that one member, and one team with nobody in it. Answers null otherwise.
 */
export async function adoptFirstMember(
  orm: MikroORM,
  input: { organizationId: string; user: { id: string; email: string }; actor: AuditActor },
): Promise<OwnerOnCall | null> {
  try {
    return await knexOf(orm).transaction(async (trx) => {
      const members = await trx('memberships').where({ organization_id: input.organizationId }).count({ n: '*' });
      const teams = await trx('teams').select('id').where({ organization_id: input.organizationId });
      if (Number(members[0].n) !== 1 || teams.length !== 1) return null;
      if (await trx('team_members').where({ team_id: teams[0].id }).first()) return null;
      return putOnCall(trx, { organizationId: input.organizationId, teamId: teams[0].id, user: input.user, actor: input.actor });
    });
  } catch (err) {
    // Added twice at once: the other adoption won.
    if (isUniqueViolation(err)) return null;
    throw err;
  }
}
