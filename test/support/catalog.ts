import type { Plan } from '../../src/domain/plans';
import { addTeamMember, createTeam, setPlan } from '../../src/services/workspace';
import { knexOf } from '../../src/db/knex';
import { dashboard, memberSession, workspaceWithRoles, type DashboardSession } from './dashboard';
import type { TestStack } from './stack';

/** Who acts in the catalog's role tables: the four roles, and a Team Manager of another team. */
export type CatalogRole = 'BILLING_OWNER' | 'ACCOUNT_ADMIN' | 'TEAM_MANAGER' | 'OTHER_TEAM_MANAGER' | 'MEMBER';

/** Each role, and whether it may change what the team `team` owns. */
export const ROLE_TABLE: ReadonlyArray<[CatalogRole, boolean]> = [
  ['BILLING_OWNER', true],
  ['ACCOUNT_ADMIN', true],
  ['TEAM_MANAGER', true],
  ['OTHER_TEAM_MANAGER', false],
  ['MEMBER', false],
];

/**
 * A workspace (BUSINESS unless told: role tables create more than FREE allows) with one session
 * per role, a team `team` its Team Manager is in, and a team `otherTeam` another Team Manager is in.
 */
export async function catalogWorkspace(stack: TestStack, opts: { plan?: Plan } = {}) {
  const { orm } = stack;
  const ws = await workspaceWithRoles(stack.urls.app, orm);
  await setPlan(orm, ws.organizationId, opts.plan ?? 'BUSINESS');
  const team = await createTeam(orm, { organizationId: ws.organizationId, name: 'Payments' });
  const otherTeam = await createTeam(orm, { organizationId: ws.organizationId, name: 'Search' });
  const otherManager = await memberSession(stack.urls.app, orm, ws.organizationId, 'TEAM_MANAGER');
  await addTeamMember(orm, { teamId: team.id, email: ws.as.TEAM_MANAGER.email });
  await addTeamMember(orm, { teamId: otherTeam.id, email: otherManager.email });
  const as: Record<CatalogRole, DashboardSession & { userId: string }> = { ...ws.as, OTHER_TEAM_MANAGER: otherManager };
  return { organizationId: ws.organizationId, owner: ws.owner, as, team, otherTeam };
}
export type CatalogWorkspace = Awaited<ReturnType<typeof catalogWorkspace>>;

/** A catalog workspace and one service of its team, made by its Account Admin through /api. */
export async function catalogWorkspaceWithService(stack: TestStack, serviceName: string): Promise<{ ws: CatalogWorkspace; serviceId: string }> {
  const ws = await catalogWorkspace(stack);
  const created = await dashboard(stack.urls.app, 'POST', '/services', { session: ws.as.ACCOUNT_ADMIN, body: { name: serviceName, team_id: ws.team.id } });
  if (created.status !== 201) throw new Error(`service: ${created.status} ${JSON.stringify(created.body)}`);
  return { ws, serviceId: created.body.data.id };
}

/** The entries of one action in `GET /api/audit-log`, newest first, as an admin of the workspace reads them. */
export async function auditLog(
  stack: TestStack,
  admin: DashboardSession,
  action: string,
): Promise<Array<{ action: string; actor: { label: string }; target: { type: string; id: string }; details: Record<string, unknown> }>> {
  const res = await dashboard(stack.urls.app, 'GET', `/audit-log?action=${encodeURIComponent(action)}`, { session: admin });
  if (res.status !== 200) throw new Error(`audit-log: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** How many rows of a table belong to the workspace: "nothing was written" compares it before and after. */
export const countIn = async (stack: TestStack, table: string, organizationId: string): Promise<number> =>
  Number((await knexOf(stack.orm)(table).where({ organization_id: organizationId }).count({ n: '*' }))[0].n);
