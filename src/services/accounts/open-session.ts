import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import { createSession, sessionFromCookie, sessionViewOf, type SessionView, type SignInMethodName } from './sessions';

/** A person every check of a sign-in method has passed for, in the workspace the session opens in. */
export interface SignedInPerson {
  userId: string;
  organizationId: string;
  method: SignInMethodName;
  /** A second factor (TOTP, recovery code) or a fresh IdP authentication came with it: the session starts stepped up. */
  steppedUp: boolean;
}

/**
 * The one way a session is opened after a sign-in, whatever the method (password, OIDC, SAML;
 * docs/sso.md): a new id, cookie value and CSRF value, the method remembered. Returns the cookie
 * value once, for the `__Host-klaxon_session` cookie.
 */
export async function openSignedInSession(
  orm: MikroORM,
  person: SignedInPerson,
  client: { ip: string; userAgent?: string },
): Promise<SessionView & { cookieValue: string }> {
  const { cookieValue } = await createSession(knexOf(orm), {
    userId: person.userId,
    organizationId: person.organizationId,
    ip: client.ip,
    userAgent: client.userAgent,
    signInMethod: person.method,
    steppedUp: person.steppedUp,
  });
  return { ...sessionViewOf(await sessionFromCookie(orm, cookieValue)), cookieValue };
}
