import { hash } from '@node-rs/argon2';
import { randomUUID } from 'node:crypto';
import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import type { Plan } from '../../domain/plans';
import type { Role } from '../../domain/roles';
import { isUniqueViolation, knexOf } from '../../db/knex';
import { conflict, invalid, notFound } from '../errors';
import { resyncAlertUsage } from '../plans';

/** Workspaces, their people and teams: the set-up every other use case needs. */

export async function createOrganization(orm: MikroORM, input: { name: string; plan: Plan }) {
  return insertOrganization(knexOf(orm), input);
}

/**
 * Writes a new workspace (in the caller's transaction, when given one). `canary`: the watchdog's
 * own workspace, whose pages go to nobody (docs/reliability.md).
 */
export async function insertOrganization(db: Knex, input: { name: string; plan: Plan; canary?: boolean }) {
  // `canary` is written only when true (the column defaults to false), so this insert also fits
  // a schema migrated back to before the column (test/integration/*-migration.test.ts).
  const org = { id: randomUUID(), name: input.name, plan: input.plan, incident_seq: 0, ...(input.canary && { canary: true }), created_at: new Date() };
  await db('organizations').insert(org);
  return { id: org.id, name: org.name, plan: org.plan, created_at: org.created_at.toISOString() };
}

export async function getOrganization(orm: MikroORM, id: string) {
  const org = await knexOf(orm)('organizations').select('id', 'name', 'plan').where({ id }).first();
  if (!org) throw notFound(`organization ${id} not found`);
  return org as { id: string; name: string; plan: Plan };
}

const normaliseEmail = (email: string) => email.trim().toLowerCase();

/**
 * Adds a member to a workspace, creating the user if the email is new. An existing user
 * keeps their password; a second membership in the same workspace is refused.
 */
export async function addUser(orm: MikroORM, input: { organizationId: string; email: string; password: string; role: Role; verified: boolean }) {
  await getOrganization(orm, input.organizationId);
  if (input.password.length < 8) throw invalid('password must be at least 8 characters');
  const email = normaliseEmail(input.email);
  const passwordHash = await hash(input.password);
  return knexOf(orm).transaction(async (trx) => {
    let user = await trx('users').select('id', 'email', 'verified').where({ email }).first();
    if (!user) {
      user = { id: randomUUID(), email, verified: input.verified };
      await trx('users').insert({ ...user, password_hash: passwordHash, created_at: new Date() });
    }
    try {
      await trx('memberships').insert({
        id: randomUUID(),
        organization_id: input.organizationId,
        user_id: user.id,
        role: input.role,
        created_at: new Date(),
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(`${email} is already a member of this workspace`, 'already_member');
      throw err;
    }
    return { id: user.id as string, email, role: input.role, verified: user.verified as boolean };
  });
}

/**
 * Writes a person who cannot sign in (no password, no identity provider) as a member of a team, in
 * the caller's transaction: the watchdog canary's recipient (docs/reliability.md).
 */
export async function insertMemberWithoutSignIn(
  trx: Knex,
  input: { organizationId: string; email: string; role: Role; teamId: string },
): Promise<{ id: string; email: string }> {
  const user = { id: randomUUID(), email: normaliseEmail(input.email) };
  const now = new Date();
  await trx('users').insert({ ...user, password_hash: null, verified: true, created_at: now });
  await trx('memberships').insert({ id: randomUUID(), organization_id: input.organizationId, user_id: user.id, role: input.role, created_at: now });
  await trx('team_members').insert({ team_id: input.teamId, user_id: user.id, created_at: now });
  return user;
}

/** Finds a member of a workspace by email, with their role. */
export async function findMember(orm: MikroORM, organizationId: string, email: string) {
  const row = await knexOf(orm)('users as u')
    .join('memberships as m', 'm.user_id', 'u.id')
    .select('u.id', 'u.email', 'u.verified', 'm.role')
    .where({ 'm.organization_id': organizationId, 'u.email': normaliseEmail(email) })
    .first();
  if (!row) throw notFound(`${email} is not a member of workspace ${organizationId}`);
  return row as { id: string; email: string; verified: boolean; role: Role };
}

export async function setRole(orm: MikroORM, organizationId: string, userId: string, role: Role) {
  const n = await knexOf(orm)('memberships').update({ role }).where({ organization_id: organizationId, user_id: userId });
  if (n === 0) throw notFound('membership not found');
}

export async function setVerified(orm: MikroORM, userId: string, verified: boolean) {
  await knexOf(orm)('users').update({ verified }).where({ id: userId });
}

export async function setPlan(orm: MikroORM, organizationId: string, plan: Plan) {
  await knexOf(orm).transaction(async (trx) => {
    await trx('organizations').update({ plan }).where({ id: organizationId });
    await resyncAlertUsage(trx, organizationId, plan, new Date());
  });
}

export async function createTeam(orm: MikroORM, input: { organizationId: string; name: string }) {
  const team = { id: randomUUID(), organization_id: input.organizationId, name: input.name, created_at: new Date() };
  await knexOf(orm)('teams').insert(team);
  return { id: team.id, name: team.name };
}

/** True when the team exists in this workspace. */
export async function teamBelongsTo(orm: MikroORM, organizationId: string, teamId: string): Promise<boolean> {
  const row = await knexOf(orm)('teams').select('id').where({ id: teamId, organization_id: organizationId }).first();
  return Boolean(row);
}
