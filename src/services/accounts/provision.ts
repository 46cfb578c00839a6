import { randomUUID } from 'node:crypto';
import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import type { Role } from '../../domain/roles';
import { USER_NAME } from '../../domain/user-profile';
import { isUniqueViolation, knexOf } from '../../db/knex';
import { recordAudit, type AuditActor } from '../audit';
import { assertRoomForOneMore, lockWorkspace } from '../workspace/plan';
import type { AccountMailer } from './mailer';
import { normaliseEmail } from './signup';

/**
 * Provisioning a member the way SCIM does (docs/scim.md, docs/importers.md "People"): a new
 * account with no password, verified (the system it comes from vouches for the address), made a
 * member at once with a role, audited as `member.provision`, and told by a welcome email how to
 * get in (set a password, or single sign-on). An address whose account already exists outside the
 * workspace is never adopted: the caller invites it instead.
 */

/** Where an address stands for a workspace: a member (with their role), an account outside it, or nobody yet. */
export type AccountStanding = { kind: 'member'; userId: string; role: Role } | { kind: 'outside'; userId: string } | { kind: 'new' };

/** The standing of each address (lower-cased), read at once. */
export async function accountStandings(db: Knex, organizationId: string, emails: string[]): Promise<Map<string, AccountStanding>> {
  const wanted = [...new Set(emails.map(normaliseEmail))];
  const rows: Array<{ id: string; email: string; role: Role | null }> = wanted.length
    ? await db('users as u')
        .leftJoin('memberships as m', function () {
          this.on('m.user_id', 'u.id').andOnVal('m.organization_id', organizationId);
        })
        .select('u.id', 'u.email', 'm.role')
        .whereIn('u.email', wanted)
    : [];
  const found = new Map(rows.map((r) => [r.email, r]));
  return new Map(
    wanted.map((email): [string, AccountStanding] => {
      const row = found.get(email);
      if (!row) return [email, { kind: 'new' }];
      return [email, row.role ? { kind: 'member', userId: row.id, role: row.role } : { kind: 'outside', userId: row.id }];
    }),
  );
}

export interface ProvisionInput {
  organizationId: string;
  email: string;
  name: string | null;
  role: Role;
  actor: AuditActor;
  /** Where the person comes from, for the audit entry and the email ("PagerDuty"). */
  from: string;
}

/** What provisioning did: a new member, or nothing because the address has a member or an outside account. */
export type Provisioned =
  { kind: 'provisioned'; userId: string; welcome: { sent: true } | { sent: false; error: string } } | Exclude<AccountStanding, { kind: 'new' }>;

/**
 * Makes `email` a member with `role` at once: a new account (no password, verified) and its
 * membership in one transaction, within the plan's user limit (403 `plan_limit_reached`), then a
 * welcome email. An address that has an account already is left alone and its standing answered.
 */
export async function provisionMember(orm: MikroORM, mailer: AccountMailer, appUrl: string, input: ProvisionInput): Promise<Provisioned> {
  const email = normaliseEmail(input.email);
  const name = input.name?.trim().slice(0, USER_NAME.max) || null;
  const db = knexOf(orm);
  let done: { userId: string; workspace: string; sso: boolean };
  try {
    const outcome = await db.transaction(async (trx): Promise<Provisioned | { userId: string; workspace: string; sso: boolean }> => {
      const org = await lockWorkspace(trx, input.organizationId);
      const standing = (await accountStandings(trx, org.id, [email])).get(email)!;
      if (standing.kind !== 'new') return standing;
      const now = new Date();
      await assertRoomForOneMore(trx, org.id, org.plan, now);
      const userId = randomUUID();
      // Made by this workspace's provisioning, as SCIM's and just-in-time accounts are (docs/sso.md).
      await trx('users').insert({ id: userId, email, name, verified: true, password_hash: null, provisioned_by_organization_id: org.id, created_at: now });
      await trx('memberships').insert({ id: randomUUID(), organization_id: org.id, user_id: userId, role: input.role, created_at: now });
      await recordAudit(trx, {
        organizationId: org.id,
        actor: input.actor,
        action: 'member.provision',
        targetType: 'user',
        targetId: userId,
        details: { email, role: input.role, from: input.from },
      });
      const sso = Boolean(await trx('sso_connections').select('organization_id').where({ organization_id: org.id }).first());
      return { userId, workspace: org.name, sso };
    });
    if ('kind' in outcome) return outcome;
    done = outcome;
  } catch (err) {
    // The address got an account between the read and the insert (a sign-up, SCIM): answer its standing.
    if (!isUniqueViolation(err)) throw err;
    return (await accountStandings(db, input.organizationId, [email])).get(email) as Exclude<AccountStanding, { kind: 'new' }>;
  }
  try {
    await mailer.send(welcomeEmail({ to: email, workspace: done.workspace, role: input.role, from: input.from, appUrl, sso: done.sso }));
    return { kind: 'provisioned', userId: done.userId, welcome: { sent: true } };
  } catch (err) {
    // The member exists either way; the caller reports the email that did not go.
    return { kind: 'provisioned', userId: done.userId, welcome: { sent: false, error: err instanceof Error ? err.message.slice(0, 300) : String(err) } };
  }
}

const ROLE_WORDS: Record<Role, string> = {
  BILLING_OWNER: 'a Billing Owner',
  ACCOUNT_ADMIN: 'an Account Admin',
  TEAM_MANAGER: 'a Team Manager',
  MEMBER: 'a Member',
  STAKEHOLDER: 'a Stakeholder (you read incidents, reports and on-call; you are never paged)',
};

/**
 * The welcome email: no link with a secret in it (a password link is asked for on the reset page,
 * and lasts an hour from then), so the email stays harmless however long it sits in a mailbox.
 */
export function welcomeEmail(w: { to: string; workspace: string; role: Role; from: string; appUrl: string; sso: boolean }) {
  const ways = [
    `Set a password: open ${w.appUrl}/reset-password and enter ${w.to}; we email you a link to choose it.`,
    ...(w.sso ? [`Or sign in with your company's single sign-on: ${w.appUrl}/login, "Continue with SSO".`] : []),
  ];
  const paged =
    w.role === 'STAKEHOLDER' ? '' : `: the schedules and escalation policies you were in page you here, on the phone numbers and addresses ${w.from} had`;
  return {
    to: w.to,
    subject: `You are a member of ${w.workspace} on Klaxon`,
    text: `Your team moved from ${w.from} to Klaxon, and you are ${ROLE_WORDS[w.role]} of the workspace "${w.workspace}" from now on${paged}.\n\n${ways.join('\n\n')}\n\nYou have no Klaxon password yet, so nobody can sign in as you until you choose one.`,
  };
}
