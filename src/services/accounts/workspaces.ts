import type { MikroORM } from '@mikro-orm/postgresql';
import type { Plan } from '../../domain/plans';
import type { Role } from '../../domain/roles';
import { knexOf } from '../../db/knex';
import { forbidden, notFound } from '../errors';
import { assertPasswordSessionAllowed } from '../sso/policy';
import { createSession, logout, sessionFromCookie, sessionViewOf, type ActiveSession, type SessionView } from './sessions';

export interface WorkspaceChoice {
  id: string;
  name: string;
  plan: Plan;
  role: Role;
  current: boolean;
}

/** The workspaces a signed-in person belongs to, in the order they joined (login opens the first). */
export async function workspacesOf(orm: MikroORM, session: ActiveSession): Promise<WorkspaceChoice[]> {
  const rows = await knexOf(orm)('memberships as m')
    .join('organizations as o', 'o.id', 'm.organization_id')
    .select('o.id', 'o.name', 'o.plan', 'm.role')
    .where({ 'm.user_id': session.user.id })
    .orderBy([{ column: 'm.created_at' }, { column: 'm.id' }]);
  return rows.map((r) => ({ id: r.id, name: r.name, plan: r.plan, role: r.role, current: r.id === session.organization.id }));
}

/**
 * Moves a signed-in person to another of their workspaces: a new session there (new id, cookie
 * and CSRF value, like any privilege change) and the old one ended. Not a member: 404, as if the
 * workspace did not exist. A session opened by SSO stays in its workspace (403 `sso_session_bound`),
 * and a workspace that requires SSO takes password sessions of its Billing Owners only (403 `sso_required`).
 */
export async function switchWorkspace(
  orm: MikroORM,
  session: ActiveSession,
  organizationId: string,
  client: { ip: string; userAgent?: string },
): Promise<SessionView & { cookieValue: string }> {
  const db = knexOf(orm);
  const member = await db('memberships').where({ user_id: session.user.id, organization_id: organizationId }).first('id');
  if (!member) throw notFound(`workspace ${organizationId} not found among yours`);
  // An identity provider vouched for this person in one workspace only (docs/sso.md).
  if (session.signInMethod !== 'password')
    throw forbidden('this session was opened by single sign-on for its workspace only: sign in to the other workspace on its own', 'sso_session_bound');
  await assertPasswordSessionAllowed(db, session.user.id, organizationId);
  const { cookieValue } = await createSession(db, { userId: session.user.id, organizationId, ip: client.ip, userAgent: client.userAgent });
  await logout(orm, session.sessionId);
  const view = sessionViewOf(await sessionFromCookie(orm, cookieValue));
  return { ...view, cookieValue };
}
