import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import type { Role } from '../../domain/roles';
import { knexOf } from '../../db/knex';
import { iso } from '../../db/timestamps';
import { issueAccountToken } from '../accounts/account-tokens';
import type { AccountMailer } from '../accounts/mailer';
import { sendVerificationEmail } from '../accounts/signup';
import { recordAudit, type AuditActor } from '../audit';
import { conflict, forbidden, notFound } from '../errors';

/** Members of a workspace as its administrators see them: roles, removal. */

/** Who is acting on the workspace's members (their role decides what they may touch). */
export interface MemberActor {
  organizationId: string;
  role: Role;
  audit: AuditActor;
}

export interface MemberJson {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  verified: boolean;
  two_factor_enabled: boolean;
  joined_at: string;
}

const memberJson = (r: Record<string, unknown>): MemberJson => ({
  id: r.id as string,
  email: r.email as string,
  name: (r.name as string | null) ?? null,
  role: r.role as Role,
  verified: Boolean(r.verified),
  two_factor_enabled: r.totp_enabled_at !== null && r.totp_enabled_at !== undefined,
  joined_at: iso(r.joined_at as Date | string),
});

const memberRows = (db: Knex, organizationId: string) =>
  db('memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .select('u.id', 'u.email', 'u.name', 'u.verified', 'u.totp_enabled_at', 'm.role', 'm.created_at as joined_at')
    .where({ 'm.organization_id': organizationId });

/** Every member of the workspace, in the order they joined. */
export async function listMembers(orm: MikroORM, organizationId: string): Promise<MemberJson[]> {
  const rows = await memberRows(knexOf(orm), organizationId).orderBy([{ column: 'm.created_at' }, { column: 'u.id' }]);
  return rows.map(memberJson);
}

/** Locks the target's membership and every Billing Owner's, so two demotions cannot both pass the last-owner check. */
async function lockedMember(trx: Knex, organizationId: string, userId: string): Promise<{ member: MemberJson; owners: number }> {
  const locked = await trx('memberships')
    .select('user_id', 'role')
    .where({ organization_id: organizationId })
    .andWhere((q) => q.where({ user_id: userId }).orWhere({ role: 'BILLING_OWNER' }))
    .forUpdate();
  const row = await memberRows(trx, organizationId).where({ 'u.id': userId }).first();
  if (!row) throw notFound(`user ${userId} is not a member of this workspace`);
  return { member: memberJson(row), owners: locked.filter((r) => r.role === 'BILLING_OWNER').length };
}

/** Only a Billing Owner may make or unmake a Billing Owner; the last one stays. */
function checkOwnerRules(actor: MemberActor, member: MemberJson, owners: number, newRole: Role | 'removed') {
  const touchesOwner = member.role === 'BILLING_OWNER' || newRole === 'BILLING_OWNER';
  if (touchesOwner && actor.role !== 'BILLING_OWNER') throw forbidden('only a Billing Owner may make, unmake or remove a Billing Owner', 'forbidden');
  if (member.role === 'BILLING_OWNER' && newRole !== 'BILLING_OWNER' && owners <= 1) {
    throw conflict(`${member.email} is the last Billing Owner of this workspace: make someone else Billing Owner first`, 'last_billing_owner');
  }
}

/** Ends the user's live sessions in this workspace (their other workspaces are untouched). */
const endSessions = (trx: Knex, organizationId: string, userId: string) =>
  trx('sessions').update({ revoked_at: new Date() }).where({ organization_id: organizationId, user_id: userId }).whereNull('revoked_at');

/**
 * Gives a member another role. Their sessions in this workspace end, so the new role applies
 * from their next login rather than whenever a cached view expires.
 */
export async function changeMemberRole(
  orm: MikroORM,
  actor: MemberActor,
  userId: string,
  role: Role,
): Promise<{ member: MemberJson; changed: boolean; sessionsEnded: number }> {
  return knexOf(orm).transaction(async (trx) => {
    const { member, owners } = await lockedMember(trx, actor.organizationId, userId);
    checkOwnerRules(actor, member, owners, role);
    if (member.role === role) return { member, changed: false, sessionsEnded: 0 };
    await trx('memberships').update({ role }).where({ organization_id: actor.organizationId, user_id: userId });
    const sessionsEnded = await endSessions(trx, actor.organizationId, userId);
    await recordAudit(trx, {
      organizationId: actor.organizationId,
      actor: actor.audit,
      action: 'member.role_change',
      targetType: 'user',
      targetId: userId,
      details: { email: member.email, from: member.role, to: role },
    });
    return { member: { ...member, role }, changed: true, sessionsEnded };
  });
}

/**
 * Removes a member from the workspace: membership, sessions here, customer API tokens and API
 * keys of this workspace, and places in its teams. The user (and their other workspaces) stays.
 */
export async function removeMember(orm: MikroORM, actor: MemberActor, userId: string) {
  return knexOf(orm).transaction((trx) => removeMemberIn(trx, actor, userId));
}

/** removeMember in the caller's transaction (SCIM deprovisioning records its own state beside it). */
export async function removeMemberIn(trx: Knex, actor: MemberActor, userId: string) {
  const { member, owners } = await lockedMember(trx, actor.organizationId, userId);
  checkOwnerRules(actor, member, owners, 'removed');
  const now = new Date();
  const scope = { organization_id: actor.organizationId, user_id: userId };
  await trx('memberships').delete().where(scope);
  const sessionsEnded = await endSessions(trx, actor.organizationId, userId);
  const tokensRevoked = await trx('api_tokens').update({ revoked_at: now }).where(scope).whereNull('revoked_at');
  const keysRevoked = await trx('api_keys').update({ revoked_at: now }).where(scope).whereNull('revoked_at');
  const teamsLeft = await trx('team_members')
    .delete()
    .where({ user_id: userId })
    .whereIn('team_id', trx('teams').select('id').where({ organization_id: actor.organizationId }));
  const result = {
    user_id: userId,
    email: member.email,
    sessions_ended: sessionsEnded,
    api_tokens_revoked: tokensRevoked,
    api_keys_revoked: keysRevoked,
    teams_left: teamsLeft,
  };
  await recordAudit(trx, {
    organizationId: actor.organizationId,
    actor: actor.audit,
    action: 'member.remove',
    targetType: 'user',
    targetId: userId,
    details: { email: member.email, role: member.role, api_tokens_revoked: tokensRevoked, api_keys_revoked: keysRevoked, teams_left: teamsLeft },
  });
  return result;
}

/**
 * Emails a signed-in, unverified member a fresh verification link (the sign-up email's twin);
 * an already verified account is 409 `already_verified`. Rate limiting is the caller's.
 */
export async function resendVerification(orm: MikroORM, mailer: AccountMailer, appUrl: string, userId: string): Promise<{ email: string }> {
  const db = knexOf(orm);
  const user = await db('users').select('email', 'verified').where({ id: userId }).first();
  if (!user) throw notFound(`user ${userId} not found`);
  if (user.verified) throw conflict('this email address is already verified', 'already_verified');
  const token = await issueAccountToken(db, userId, 'verify_email');
  await sendVerificationEmail(mailer, appUrl, user.email as string, token);
  return { email: user.email as string };
}
