import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import { unauthorized } from '../errors';
import type { LoginThrottle } from './login-throttle';
import { passwordMatches } from './passwords';
import { createSession, sessionFromCookie, type SessionView } from './sessions';
import { normaliseEmail } from './signup';

export interface LoginInput {
  email: string;
  password: string;
  totp_code?: string;
}

/** One answer for an unknown email and a wrong password. */
export const BAD_CREDENTIALS = 'wrong email or password';

/**
 * Checks the credentials (throttled per account and IP) and opens a new session in the user's
 * first workspace. Every login gets a new session id, cookie value and CSRF value.
 */
export async function login(
  orm: MikroORM,
  throttle: LoginThrottle,
  input: LoginInput,
  client: { ip: string; userAgent?: string },
): Promise<SessionView & { cookieValue: string }> {
  const email = normaliseEmail(input.email);
  await throttle.check(email, client.ip);
  const db = knexOf(orm);
  const user = (await db('users').select('id', 'password_hash').where({ email }).first()) as { id: string; password_hash: string } | undefined;
  const membership = user
    ? ((await db('memberships').select('organization_id').where({ user_id: user.id }).orderBy([{ column: 'created_at' }, { column: 'id' }]).first()) as { organization_id: string } | undefined)
    : undefined;
  if (!(await passwordMatches(user?.password_hash ?? null, input.password)) || !user || !membership) {
    await throttle.failed(email, client.ip);
    throw unauthorized(BAD_CREDENTIALS, 'unauthorized');
  }
  await throttle.succeeded(email);
  const { cookieValue } = await createSession(db, { userId: user.id, organizationId: membership.organization_id, ip: client.ip, userAgent: client.userAgent });
  const { sessionId: _sessionId, ...view } = await sessionFromCookie(orm, cookieValue);
  return { ...view, cookieValue };
}
