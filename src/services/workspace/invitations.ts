import { randomUUID } from 'node:crypto';
import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import type { Role } from '../../domain/roles';
import { isUniqueViolation, knexOf } from '../../db/knex';
import { iso } from '../../db/timestamps';
import type { AccountMailer } from '../accounts/mailer';
import { checkPasswordStrength, hashPassword, passwordMatches } from '../accounts/passwords';
import { randomSecret, sha256Hex } from '../accounts/secrets';
import { normaliseEmail } from '../accounts/signup';
import { recordAudit, type AuditActor } from '../audit';
import { conflict, forbidden, invalid, notFound, unauthorized } from '../errors';
import { assertRoomForOneMore, lockWorkspace } from './plan';

/** Emailed invitations to join a workspace with a role (issue 13). */

export const INVITATION_TTL_MS = 7 * 24 * 3_600_000;

/** One answer for every link that does not work, so it tells a guesser nothing. */
const INVALID = () => invalid('token: this invitation link is invalid, expired, revoked or already used; ask for a new invitation', 'invitation_invalid');

export interface InvitationJson {
  id: string;
  email: string;
  role: Role;
  invited_by: { id: string; email: string } | null;
  created_at: string;
  expires_at: string;
}

const invitationJson = (r: Record<string, unknown>): InvitationJson => ({
  id: r.id as string,
  email: r.email as string,
  role: r.role as Role,
  invited_by: r.invited_by ? { id: r.invited_by as string, email: (r.inviter_email as string | null) ?? '' } : null,
  created_at: iso(r.created_at as Date | string),
  expires_at: iso(r.expires_at as Date | string),
});

const pending = (db: Knex, organizationId: string, now: Date) =>
  db('invitations as i')
    .leftJoin('users as u', 'u.id', 'i.invited_by')
    .select('i.id', 'i.email', 'i.role', 'i.invited_by', 'u.email as inviter_email', 'i.created_at', 'i.expires_at')
    .where({ 'i.organization_id': organizationId })
    .whereNull('i.accepted_at')
    .whereNull('i.revoked_at')
    .andWhere('i.expires_at', '>', now);

/** Invitations not yet accepted, revoked or expired, newest first. */
export async function listInvitations(orm: MikroORM, organizationId: string): Promise<InvitationJson[]> {
  const rows = await pending(knexOf(orm), organizationId, new Date()).orderBy([{ column: 'i.created_at', order: 'desc' }, { column: 'i.id' }]);
  return rows.map(invitationJson);
}

/** The inviter: verification and the Billing-Owner rule are checked here whatever the surface. */
export interface Inviter {
  organizationId: string;
  /** null: the system (an import run from the CLI). */
  userId: string | null;
  role: Role;
  audit: AuditActor;
}

/**
 * Invites an email address with a role: refuses an existing member (409 `already_member`) and a
 * full plan (members + pending invitations, 403 `plan_limit_reached`), replaces a pending
 * invitation to the same address, and emails a link valid 7 days (only its hash is stored).
 */
export async function createInvitation(orm: MikroORM, mailer: AccountMailer, appUrl: string, inviter: Inviter, input: { email: string; role: Role }) {
  if (input.role === 'BILLING_OWNER' && inviter.role !== 'BILLING_OWNER') throw forbidden('only a Billing Owner may invite a Billing Owner', 'forbidden');
  const email = normaliseEmail(input.email);
  const token = randomSecret();
  const now = new Date();
  const { row, org, replaced } = await knexOf(orm).transaction(async (trx) => {
    const org = await lockWorkspace(trx, inviter.organizationId);
    const member = await trx('memberships as m')
      .join('users as u', 'u.id', 'm.user_id')
      .select('u.id')
      .where({ 'm.organization_id': org.id, 'u.email': email })
      .first();
    if (member) throw conflict(`${email} is already a member of this workspace`, 'already_member');
    const replaced = (await trx('invitations')
      .update({ revoked_at: now })
      .where({ organization_id: org.id, email })
      .whereNull('accepted_at')
      .whereNull('revoked_at')
      .returning(['id'])) as Array<{ id: string }>;
    await assertRoomForOneMore(trx, org.id, org.plan, now);
    const row = {
      id: randomUUID(),
      organization_id: org.id,
      email,
      role: input.role,
      token_hash: sha256Hex(token),
      invited_by: inviter.userId,
      created_at: now,
      expires_at: new Date(now.getTime() + INVITATION_TTL_MS),
      accepted_at: null,
      revoked_at: null,
    };
    await trx('invitations').insert(row);
    const replacedIds = replaced.map((r) => r.id);
    await recordAudit(trx, {
      organizationId: org.id,
      actor: inviter.audit,
      action: 'invitation.create',
      targetType: 'invitation',
      targetId: row.id,
      details: { email, role: input.role, ...(replacedIds.length ? { replaced: replacedIds } : {}) },
    });
    return { row, org, replaced: replacedIds };
  });
  const link = `${appUrl}/invitations/accept?token=${encodeURIComponent(token)}`;
  const by = inviter.audit.kind === 'user' ? inviter.audit.email : 'an administrator';
  await mailer.send({
    to: email,
    subject: `You are invited to ${org.name} on Klaxon`,
    text: `${by} invited you to join the workspace "${org.name}" on Klaxon as ${input.role}.\n\nAccept by opening this link (it works once, for 7 days):\n\n${link}\n\nIf you did not expect this, ignore this message.`,
  });
  return { invitation: invitationJson({ ...row, inviter_email: by }), replaced };
}

/** Revokes a pending invitation of this workspace: its link stops working at once. */
export async function revokeInvitation(orm: MikroORM, actor: { organizationId: string; audit: AuditActor }, id: string) {
  return knexOf(orm).transaction(async (trx) => {
    const row = await trx('invitations')
      .select('id', 'email', 'role', 'accepted_at', 'revoked_at')
      .where({ id, organization_id: actor.organizationId })
      .forUpdate()
      .first();
    if (!row) throw notFound(`invitation ${id} not found`);
    if (row.accepted_at) throw conflict(`the invitation to ${row.email} was already accepted; remove the member instead`, 'invitation_accepted');
    if (row.revoked_at) return { id, email: row.email as string, revoked: true, changed: false };
    await trx('invitations').update({ revoked_at: new Date() }).where({ id });
    await recordAudit(trx, {
      organizationId: actor.organizationId,
      actor: actor.audit,
      action: 'invitation.revoke',
      targetType: 'invitation',
      targetId: id,
      details: { email: row.email, role: row.role },
    });
    return { id, email: row.email as string, revoked: true, changed: true };
  });
}

export interface AcceptInput {
  token: string;
  name?: string;
  password?: string;
}

const livePending = (db: Knex, token: string, now: Date) =>
  db('invitations')
    .where({ token_hash: sha256Hex(token) })
    .whereNull('accepted_at')
    .whereNull('revoked_at')
    .andWhere('expires_at', '>', now);

/**
 * Accepts an invitation. A new address becomes a verified user (opening the emailed link proved
 * it) with the password given; an existing user proves it is them with their current password.
 * Then the membership with the invited role. The user limit is checked again.
 */
export async function acceptInvitation(orm: MikroORM, input: AcceptInput, client: { ip?: string } = {}) {
  const now = new Date();
  const db = knexOf(orm);
  const invitation = await livePending(db, input.token, now).select('id', 'email').first();
  if (!invitation) throw INVALID();
  const existing = await db('users').select('id', 'password_hash').where({ email: invitation.email }).first();
  if (input.password === undefined)
    throw invalid(existing ? 'password: give the current password of your Klaxon account' : 'password: choose a password for your new account');
  let newPasswordHash: string | undefined;
  if (existing) {
    if (!(await passwordMatches(existing.password_hash ?? null, input.password)))
      throw unauthorized(`password: not the current password of ${invitation.email as string}`, 'unauthorized');
  } else {
    checkPasswordStrength(input.password);
    newPasswordHash = await hashPassword(input.password);
  }
  return db.transaction(async (trx) => {
    const inv = await livePending(trx, input.token, now).select('id', 'organization_id', 'email', 'role').forUpdate().first();
    if (!inv) throw INVALID();
    const org = await lockWorkspace(trx, inv.organization_id);
    let userId = existing?.id as string | undefined;
    if (!userId) {
      userId = randomUUID();
      try {
        await trx('users').insert({ id: userId, email: inv.email, name: input.name ?? null, verified: true, password_hash: newPasswordHash, created_at: now });
      } catch (err) {
        // The address signed up between our read and this insert: they must accept as that account.
        if (isUniqueViolation(err)) throw conflict(`an account with ${inv.email as string} was just created; accept again with its password`, 'email_taken');
        throw err;
      }
    } else {
      await trx('users').update({ verified: true }).where({ id: userId });
    }
    if (await trx('memberships').select('id').where({ organization_id: org.id, user_id: userId }).first()) {
      throw conflict(`${inv.email as string} is already a member of this workspace`, 'already_member');
    }
    await assertRoomForOneMore(trx, org.id, org.plan, now, inv.id);
    await trx('memberships').insert({ id: randomUUID(), organization_id: org.id, user_id: userId, role: inv.role, created_at: now });
    await trx('invitations').update({ accepted_at: now }).where({ id: inv.id });
    await recordAudit(trx, {
      organizationId: org.id,
      actor: { kind: 'user', userId, email: inv.email, ip: client.ip },
      action: 'invitation.accept',
      targetType: 'invitation',
      targetId: inv.id,
      details: { email: inv.email, role: inv.role, new_account: !existing },
    });
    return {
      organization: { id: org.id, name: org.name, plan: org.plan },
      role: inv.role as Role,
      user: { id: userId, email: inv.email as string, new_account: !existing },
    };
  });
}
