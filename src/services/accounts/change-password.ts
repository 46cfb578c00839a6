import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import { invalid } from '../errors';
import type { LoginThrottle } from './login-throttle';
import { checkPasswordStrength, hashPassword, passwordMatches } from './passwords';
import { createSession, sessionFromCookie, type ActiveSession, type SessionView } from './sessions';

/**
 * Changes a signed-in user's password. The current password is required (a wrong one counts as
 * a failed login for the throttle). The session is rotated: every session of the user, the
 * caller's included, is revoked and a new one opened for the caller.
 */
export async function changePassword(
  orm: MikroORM,
  throttle: LoginThrottle,
  session: ActiveSession,
  input: { current_password: string; new_password: string },
  client: { ip: string; userAgent?: string },
): Promise<SessionView & { cookieValue: string }> {
  const email = session.user.email;
  await throttle.check(email, client.ip);
  checkPasswordStrength(input.new_password);
  const db = knexOf(orm);
  const row = (await db('users').select('password_hash').where({ id: session.user.id }).first()) as { password_hash: string } | undefined;
  if (!(await passwordMatches(row?.password_hash ?? null, input.current_password))) {
    await throttle.failed(email, client.ip);
    // 400, not 401: the session is fine, the field is wrong.
    throw invalid('current_password: is not the current password');
  }
  await throttle.succeeded(email);
  const passwordHash = await hashPassword(input.new_password);
  const { cookieValue } = await db.transaction(async (trx) => {
    await trx('users').update({ password_hash: passwordHash }).where({ id: session.user.id });
    await trx('sessions').update({ revoked_at: new Date() }).where({ user_id: session.user.id }).whereNull('revoked_at');
    return createSession(trx, { userId: session.user.id, organizationId: session.organization.id, ip: client.ip, userAgent: client.userAgent });
  });
  const { sessionId: _id, ...view } = await sessionFromCookie(orm, cookieValue);
  return { ...view, cookieValue };
}
