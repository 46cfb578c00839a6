import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import { invalid } from '../errors';
import { spendAccountTokens } from './account-tokens';
import type { AttemptThrottle } from '../throttles';
import { checkPasswordStrength, hashPassword, passwordMatches } from './passwords';
import { createSession, sessionFromCookie, sessionViewOf, type ActiveSession, type SessionView } from './sessions';

/**
 * Changes a signed-in user's password. The current password is required (a wrong one counts as
 * a failed login: the attempt is reserved on the login throttle before it is checked). The session
 * is rotated: every session of the user, the caller's included, is revoked and a new one opened
 * for the caller; every outstanding reset link stops working.
 */
export async function changePassword(
  orm: MikroORM,
  throttle: AttemptThrottle,
  session: ActiveSession,
  input: { current_password: string; new_password: string },
  client: { ip: string; userAgent?: string },
): Promise<SessionView & { cookieValue: string }> {
  const email = session.user.email;
  // Before the attempt is reserved: a weak new password is bad input, and changes nothing.
  checkPasswordStrength(input.new_password);
  const attempt = await throttle.reserve(email, client.ip);
  const db = knexOf(orm);
  const row = (await db('users').select('password_hash').where({ id: session.user.id }).first()) as { password_hash: string } | undefined;
  // 400, not 401: the session is fine, the field is wrong. The attempt stays counted.
  if (!(await passwordMatches(row?.password_hash ?? null, input.current_password))) throw invalid('current_password: is not the current password');
  await attempt.succeeded();
  const passwordHash = await hashPassword(input.new_password);
  const { cookieValue } = await db.transaction(async (trx) => {
    await trx('users').update({ password_hash: passwordHash }).where({ id: session.user.id });
    await trx('sessions').update({ revoked_at: new Date() }).where({ user_id: session.user.id }).whereNull('revoked_at');
    await spendAccountTokens(trx, session.user.id, 'reset_password');
    return createSession(trx, {
      userId: session.user.id,
      organizationId: session.organization.id,
      ip: client.ip,
      userAgent: client.userAgent,
      signInMethod: session.signInMethod,
    });
  });
  const view = sessionViewOf(await sessionFromCookie(orm, cookieValue));
  return { ...view, cookieValue };
}
