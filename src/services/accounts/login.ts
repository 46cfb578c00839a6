import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import { invalid, unauthorized } from '../errors';
import type { Sealer } from '../sealing/seal';
import type { AttemptThrottle } from '../throttles';
import { passwordMatches } from './passwords';
import { spendRecoveryCode } from './recovery-codes';
import { assertPasswordSessionAllowed } from '../sso/policy';
import { openSignedInSession } from './open-session';
import type { SessionView } from './sessions';
import { normaliseEmail } from './signup';
import { acceptTotpCode } from './totp';

export interface LoginInput {
  email: string;
  password: string;
  totp_code?: string;
  /** Instead of a TOTP code when the device is lost: good once. */
  recovery_code?: string;
}

/** One answer for an unknown email and a wrong password. */
export const BAD_CREDENTIALS = 'wrong email or password';

/**
 * Checks the credentials (throttled per account and IP: the attempt is reserved before the
 * password is checked) and opens a new session in the user's first workspace. Every login gets a new session id, cookie value and CSRF value. With
 * two-factor on, a right password alone is 401 `totp_required`; a wrong code is 401
 * `totp_invalid` and counts as a failed login; a session opened with a second factor is
 * stepped up. A workspace that requires SSO refuses everyone but its Billing Owners (403
 * `sso_required`, docs/sso.md) once the password is known to be right.
 */
export async function login(
  orm: MikroORM,
  throttle: AttemptThrottle,
  input: LoginInput,
  client: { ip: string; userAgent?: string },
  sealer: Sealer,
): Promise<SessionView & { cookieValue: string }> {
  const email = normaliseEmail(input.email);
  if (input.totp_code !== undefined && input.recovery_code !== undefined) throw invalid('give totp_code or recovery_code, not both');
  const attempt = await throttle.reserve(email, client.ip);
  const db = knexOf(orm);
  const user = (await db('users').select('id', 'password_hash', 'totp_enabled_at').where({ email }).first()) as
    { id: string; password_hash: string; totp_enabled_at: unknown } | undefined;
  const membership = user
    ? ((await db('memberships')
        .select('organization_id')
        .where({ user_id: user.id })
        .orderBy([{ column: 'created_at' }, { column: 'id' }])
        .first()) as { organization_id: string } | undefined)
    : undefined;
  // A failure keeps its reserved attempt counted.
  if (!(await passwordMatches(user?.password_hash ?? null, input.password)) || !user || !membership) throw unauthorized(BAD_CREDENTIALS, 'unauthorized');
  try {
    await assertPasswordSessionAllowed(db, user.id, membership.organization_id);
  } catch (err) {
    // The right password, refused by the workspace's policy: neither a failure nor a success.
    await attempt.uncounted();
    throw err;
  }
  const secondFactor = Boolean(user.totp_enabled_at);
  if (secondFactor) {
    if (input.totp_code === undefined && input.recovery_code === undefined) {
      // The right password, not yet a login: neither a failure nor a success.
      await attempt.uncounted();
      throw unauthorized('two-factor authentication is on: send totp_code (or a recovery_code) with the password', 'totp_required');
    }
    const held =
      input.totp_code !== undefined ? await acceptTotpCode(db, sealer, user.id, input.totp_code) : await spendRecoveryCode(db, user.id, input.recovery_code!);
    if (!held) throw unauthorized('the two-factor code is not right (each code works once)', 'totp_invalid');
  }
  await attempt.succeeded();
  return openSignedInSession(orm, { userId: user.id, organizationId: membership.organization_id, method: 'password', steppedUp: secondFactor }, client);
}
