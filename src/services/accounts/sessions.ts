import { randomUUID } from 'node:crypto';
import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import type { Plan } from '../../domain/plans';
import type { Role } from '../../domain/roles';
import { knexOf } from '../../db/knex';
import { millis } from '../../db/timestamps';
import { unauthorized } from '../errors';
import { randomSecret, sha256Hex } from './secrets';

/** A session ends this long after its last request… */
export const SESSION_IDLE_MS = 12 * 3_600_000;
/** …and this long after it began, however active. */
export const SESSION_ABSOLUTE_MS = 7 * 24 * 3_600_000;
/** `last_seen_at` is written at most this often per session. */
export const SESSION_TOUCH_MS = 60_000;

/** What the dashboard knows about the signed-in person (the `data` of login and GET /api/auth/session). */
export interface SessionView {
  user: { id: string; email: string; name: string | null; verified: boolean };
  organization: { id: string; name: string; plan: Plan };
  role: Role;
  csrf_token: string;
}

/** How a session was opened (docs/sso.md): a password (with or without a second factor), or a workspace's identity provider. */
export type SignInMethodName = 'password' | 'oidc' | 'saml';

export interface ActiveSession extends SessionView {
  sessionId: string;
  signInMethod: SignInMethodName;
}

const SESSION_ENDED = 'not signed in, or the session has expired; log in again';
const ended = () => unauthorized(SESSION_ENDED, 'unauthorized');

/** Opens a session: a fresh id, cookie value and CSRF value every time (never reused). Returns the cookie value once. */
export async function createSession(
  db: Knex,
  input: { userId: string; organizationId: string; ip?: string; userAgent?: string; signInMethod?: SignInMethodName; steppedUp?: boolean },
  now = new Date(),
): Promise<{ sessionId: string; cookieValue: string; csrfToken: string }> {
  const cookieValue = randomSecret();
  const csrfToken = randomSecret();
  const sessionId = randomUUID();
  await db('sessions').insert({
    id: sessionId,
    token_hash: sha256Hex(cookieValue),
    user_id: input.userId,
    organization_id: input.organizationId,
    csrf_token: csrfToken,
    created_at: now,
    last_seen_at: now,
    expires_at: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
    revoked_at: null,
    stepped_up_at: input.steppedUp ? now : null,
    sign_in_method: input.signInMethod ?? 'password',
    ip: input.ip?.slice(0, 64) ?? null,
    user_agent: input.userAgent?.slice(0, 512) || null,
  });
  return { sessionId, cookieValue, csrfToken };
}

/**
 * The session a cookie value names, if it is live: not revoked, within its absolute expiry and
 * used within the idle window. Anything else is one 401. Touches `last_seen_at` at most once a minute.
 */
export async function sessionFromCookie(orm: MikroORM, cookieValue: string | undefined, now = new Date()): Promise<ActiveSession> {
  if (!cookieValue) throw ended();
  const db = knexOf(orm);
  const row = await db('sessions as s')
    .join('users as u', 'u.id', 's.user_id')
    .join('organizations as o', 'o.id', 's.organization_id')
    .join('memberships as m', function () {
      this.on('m.user_id', '=', 's.user_id').andOn('m.organization_id', '=', 's.organization_id');
    })
    .select(
      's.id as session_id',
      's.csrf_token',
      's.last_seen_at',
      's.expires_at',
      's.revoked_at',
      's.sign_in_method',
      'u.id as user_id',
      'u.email',
      'u.name as user_name',
      'u.verified',
      'o.id as organization_id',
      'o.name as organization_name',
      'o.plan',
      'm.role',
    )
    .where({ 's.token_hash': sha256Hex(cookieValue) })
    .first();
  if (!row || row.revoked_at) throw ended();
  const t = now.getTime();
  if (millis(row.expires_at) <= t || millis(row.last_seen_at) + SESSION_IDLE_MS <= t) throw ended();
  if (t - millis(row.last_seen_at) >= SESSION_TOUCH_MS) await db('sessions').update({ last_seen_at: now }).where({ id: row.session_id });
  return {
    sessionId: row.session_id,
    signInMethod: row.sign_in_method,
    user: { id: row.user_id, email: row.email, name: row.user_name, verified: row.verified },
    organization: { id: row.organization_id, name: row.organization_name, plan: row.plan },
    role: row.role,
    csrf_token: row.csrf_token,
  };
}

/** What the dashboard is told of a session: no id, no sign-in method. */
export const sessionViewOf = ({ sessionId: _id, signInMethod: _method, ...view }: ActiveSession): SessionView => view;

/** Ends one session. */
export async function logout(orm: MikroORM, sessionId: string): Promise<void> {
  await knexOf(orm)('sessions').update({ revoked_at: new Date() }).where({ id: sessionId }).whereNull('revoked_at');
}

/** Ends every live session of a user (all devices); `except` keeps one (the caller's new one). */
export async function logoutEverywhere(db: MikroORM | Knex, userId: string, except?: string): Promise<number> {
  const k = 'em' in db ? knexOf(db) : db;
  const q = k('sessions').update({ revoked_at: new Date() }).where({ user_id: userId }).whereNull('revoked_at');
  if (except) q.whereNot({ id: except });
  return q;
}
