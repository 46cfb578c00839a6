import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { isUniqueViolation, knexOf } from '../../db/knex';
import { conflict } from '../errors';
import type { ClientIpThrottle } from '../throttles';
import { prepareWorkspace } from '../workspace/ready-workspace';
import { issueAccountToken } from './account-tokens';
import type { AccountMailer } from './mailer';
import { checkPasswordStrength, hashPassword } from './passwords';

export interface SignupInput {
  email: string;
  password: string;
  name: string;
  organization_name: string;
}

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

const EMAIL_TAKEN = 'an account with this email already exists; log in or reset the password';

/**
 * Opens an account: a FREE workspace ready to page (its team with the new user in it, a default
 * service and escalation policy, the user's email paged at once: prepareWorkspace), its first
 * user as Billing Owner (unverified), and a verification email with a one-time link. Everything
 * is written in one transaction, so a refused sign-up (email taken) leaves nothing behind. Sign-ups are
 * counted per client IP (Throttled past the limit); one for a taken address counts too, or
 * sign-up would probe addresses unthrottled.
 */
export async function signup(orm: MikroORM, mailer: AccountMailer, appUrl: string, input: SignupInput, client: { ip: string; throttle: ClientIpThrottle }) {
  checkPasswordStrength(input.password);
  await client.throttle.take(client.ip);
  const email = normaliseEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  const now = new Date();
  const created = await knexOf(orm).transaction(async (trx) => {
    if (await trx('users').select('id').where({ email }).first()) throw conflict(EMAIL_TAKEN, 'email_taken');
    const org = { id: randomUUID(), name: input.organization_name, plan: 'FREE', incident_seq: 0, created_at: now };
    const user = { id: randomUUID(), email, name: input.name, verified: false };
    await trx('organizations').insert(org);
    try {
      await trx('users').insert({ ...user, password_hash: passwordHash, created_at: now });
    } catch (err) {
      // Two sign-ups for one address at once: the second loses here.
      if (isUniqueViolation(err)) throw conflict(EMAIL_TAKEN, 'email_taken');
      throw err;
    }
    await trx('memberships').insert({ id: randomUUID(), organization_id: org.id, user_id: user.id, role: 'BILLING_OWNER', created_at: now });
    await prepareWorkspace(trx, {
      organizationId: org.id,
      name: org.name,
      owner: { id: user.id, email },
      actor: { kind: 'user', userId: user.id, email, ip: client.ip },
    });
    const token = await issueAccountToken(trx, user.id, 'verify_email', now);
    return { org, user, token };
  });
  await sendVerificationEmail(mailer, appUrl, email, created.token);
  return {
    user: { ...created.user },
    organization: { id: created.org.id, name: created.org.name, plan: created.org.plan },
    role: 'BILLING_OWNER' as const,
  };
}

export async function sendVerificationEmail(mailer: AccountMailer, appUrl: string, email: string, token: string): Promise<void> {
  const link = `${appUrl}/verify?token=${encodeURIComponent(token)}`;
  await mailer.send({
    to: email,
    subject: 'Verify your Klaxon email address',
    text: `Welcome to Klaxon. Confirm your email address by opening this link (it works once, for 48 hours):\n\n${link}\n\nIf you did not sign up, ignore this message.`,
  });
}
