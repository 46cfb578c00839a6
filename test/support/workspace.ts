import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { AccessLevel } from '../../src/domain/api-token';
import type { Plan } from '../../src/domain/plans';
import type { Role } from '../../src/domain/roles';
import { openOrm } from '../../src/db/orm';
import { createApiToken } from '../../src/services/workspace/api-tokens';
import { knexOf } from '../../src/db/knex';
import { createService } from '../../src/services/workspace/catalog';
import { addUser, createOrganization, createTeam } from '../../src/services/workspace/workspaces';

export interface SeededWorkspace {
  organizationId: string;
  teamId: string;
  serviceId: string;
  admin: { id: string; email: string };
  /** Plaintext tokens of the admin. */
  tokens: { readWrite: string; readOnly: string };
}

/** A fresh workspace with an Account Admin and one token of each access level. */
export async function seedWorkspace(orm: MikroORM, opts: { plan?: Plan } = {}): Promise<SeededWorkspace> {
  const org = await createOrganization(orm, { name: `Test ${randomUUID().slice(0, 8)}`, plan: opts.plan ?? 'PRO' });
  const admin = await addMember(orm, org.id, 'ACCOUNT_ADMIN');
  const team = await createTeam(orm, { organizationId: org.id, name: 'Ops' });
  const service = await createService(orm, { organizationId: org.id, teamId: team.id, name: 'API' });
  const readWrite = await tokenFor(orm, org.id, admin.email, 'READ_WRITE');
  const readOnly = await tokenFor(orm, org.id, admin.email, 'READ_ONLY');
  return { organizationId: org.id, teamId: team.id, serviceId: service.id, admin, tokens: { readWrite, readOnly } };
}

export async function addMember(orm: MikroORM, organizationId: string, role: Role, verified = true) {
  return addUser(orm, { organizationId, email: `${role.toLowerCase()}-${randomUUID().slice(0, 8)}@example.test`, password: 'a long password', role, verified });
}

export async function tokenFor(orm: MikroORM, organizationId: string, email: string, access: AccessLevel, days = 30) {
  return (await createApiToken(orm, { organizationId, email, access, days })).token;
}

/** Its own connection to the file's test database and two fresh workspaces, for cross-workspace checks. */
export async function openTwoWorkspaces(): Promise<{ orm: MikroORM; ws: SeededWorkspace; other: SeededWorkspace }> {
  const orm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 2);
  return { orm, ws: await seedWorkspace(orm), other: await seedWorkspace(orm) };
}

/** Rows in a table: "nothing was written" checks compare it before and after. */
export const rowCount = async (orm: MikroORM, table: string): Promise<number> => Number((await knexOf(orm)(table).count({ n: '*' }))[0].n);
