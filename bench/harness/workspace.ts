import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Plan } from '../../src/domain/plans';
import { addUser, createApiToken, createOrganization, createTeam } from '../../src/services/workspace';

/** A bench workspace: an organization, one team, and a verified Account Admin's READ_WRITE token. */
export interface BenchWorkspace {
  organizationId: string;
  teamId: string;
  token: string;
}

/** What tells the bench's workspaces apart: their names and plan. */
export interface WorkspaceProfile {
  name: string;
  plan: Plan;
  teamName: string;
  /** The admin's address is `<adminPrefix>-<random>@example.test`. */
  adminPrefix: string;
}

/** The workspace of the lifecycle, GET /incidents and ingestion phases. */
const DEFAULT_PROFILE: WorkspaceProfile = { name: 'Bench', plan: 'PRO', teamName: 'Bench on-call', adminPrefix: 'bench' };

export async function seedWorkspace(orm: MikroORM, profile: WorkspaceProfile = DEFAULT_PROFILE): Promise<BenchWorkspace> {
  const org = await createOrganization(orm, { name: profile.name, plan: profile.plan });
  const admin = await addUser(orm, {
    organizationId: org.id,
    email: `${profile.adminPrefix}-${randomUUID().slice(0, 8)}@example.test`,
    password: 'a long bench password',
    role: 'ACCOUNT_ADMIN',
    verified: true,
  });
  const team = await createTeam(orm, { organizationId: org.id, name: profile.teamName });
  const { token } = await createApiToken(orm, { organizationId: org.id, email: admin.email, access: 'READ_WRITE', days: 1 });
  return { organizationId: org.id, teamId: team.id, token };
}

/** The customer API path of the workspace's incidents. */
export const incidentsPath = (ws: BenchWorkspace) => `/api/v1/organizations/${ws.organizationId}/incidents`;

/** The header that authenticates a request as the workspace's admin. */
export const authorization = (ws: BenchWorkspace) => ({ Authorization: `Bearer ${ws.token}` });
