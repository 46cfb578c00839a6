import { startTestStack, type TestStack } from './stack';
import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../src/db/knex';
import { request, type ApiResponse } from './http';
import type { Role } from '../../src/domain/roles';
import { addUser } from '../../src/services/workspace';

export const SESSION_COOKIE = '__Host-klaxon_session';

/** A signed-in dashboard client: its cookie value and CSRF value. */
export interface DashboardSession {
  cookie: string;
  csrf: string;
  email: string;
  password: string;
}

/** A request to the dashboard API with the session cookie and, unless told otherwise, its CSRF value. */
export function dashboard<T = any>(
  appUrl: string,
  method: string,
  path: string,
  opts: { session?: Pick<DashboardSession, 'cookie' | 'csrf'>; csrf?: string | null; body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.session) headers.Cookie = `${SESSION_COOKIE}=${opts.session.cookie}`;
  const csrf = opts.csrf === undefined ? opts.session?.csrf : opts.csrf;
  if (csrf !== null && csrf !== undefined && method !== 'GET') headers['X-CSRF-Token'] = csrf;
  return request<T>(method, `${appUrl}/api${path}`, { body: opts.body, headers });
}

/** The session cookie's value from a response's Set-Cookie, if any. */
export function sessionCookieFrom(res: ApiResponse): string | undefined {
  const line = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  return line?.slice(SESSION_COOKIE.length + 1).split(';')[0];
}

export const newAccount = () => ({
  email: `owner-${randomUUID()}@example.test`,
  password: 'correct horse battery',
  name: 'Ada Owner',
  organization_name: `Acme ${randomUUID().slice(0, 8)}`,
});

/** The newest dev-inbox email to an address. */
export async function lastEmailTo(orm: MikroORM, to: string): Promise<{ subject: string; body: string } | undefined> {
  return knexOf(orm)('dev_deliveries').select('subject', 'body').where({ channel: 'email', to }).orderBy('created_at', 'desc').first();
}

/** The token of the verification link in the newest email to an address. */
export async function verificationTokenFor(orm: MikroORM, to: string): Promise<string> {
  const mail = await lastEmailTo(orm, to);
  const match = mail?.body.match(/\/verify\?token=([A-Za-z0-9_-]+)/);
  if (!match) throw new Error(`no verification link emailed to ${to}`);
  return match[1];
}

/** Signs up (and verifies, unless told not to), then logs in. */
export async function signUpAndLogIn(
  appUrl: string,
  orm: MikroORM,
  opts: { verify?: boolean } = {},
): Promise<DashboardSession & { organizationId: string; userId: string }> {
  const account = newAccount();
  const created = await dashboard(appUrl, 'POST', '/auth/signup', { body: account });
  if (created.status !== 201) throw new Error(`signup: ${created.status} ${JSON.stringify(created.body)}`);
  if (opts.verify !== false) {
    const verified = await dashboard(appUrl, 'POST', '/auth/verify', { body: { token: await verificationTokenFor(orm, account.email) } });
    if (verified.status !== 200) throw new Error(`verify: ${verified.status} ${JSON.stringify(verified.body)}`);
  }
  const res = await dashboard(appUrl, 'POST', '/auth/login', { body: { email: account.email, password: account.password } });
  if (res.status !== 200) throw new Error(`login: ${res.status} ${JSON.stringify(res.body)}`);
  return {
    cookie: sessionCookieFrom(res)!,
    csrf: res.body.data.csrf_token,
    email: account.email,
    password: account.password,
    organizationId: res.body.data.organization.id,
    userId: res.body.data.user.id,
  };
}

/** A dashboard test file's stack, started before its tests and stopped after, and a client on its `/api`. */
export function dashboardFixture(opts: { env?: () => Record<string, string> } = {}) {
  const held: { stack?: TestStack } = {};
  beforeAll(async () => {
    // A thunk: the environment may name servers (a DNS server) started by an earlier beforeAll.
    held.stack = await startTestStack({ env: opts.env?.() });
  });
  afterAll(() => held.stack?.stop());
  return {
    get stack(): TestStack {
      return held.stack!;
    },
    api: (method: string, path: string, opts: Parameters<typeof dashboard>[3] = {}) => dashboard(held.stack!.urls.app, method, path, opts),
  };
}

/** Adds a member with a role to a workspace (verified unless told otherwise) and logs them in: for route × role tests. */
export async function memberSession(
  appUrl: string,
  orm: MikroORM,
  organizationId: string,
  role: Role,
  opts: { verified?: boolean } = {},
): Promise<DashboardSession & { organizationId: string; userId: string; role: Role }> {
  const email = `${role.toLowerCase().replace('_', '-')}-${randomUUID()}@example.test`;
  const password = 'correct horse battery';
  const user = await addUser(orm, { organizationId, email, password, role, verified: opts.verified !== false });
  const res = await dashboard(appUrl, 'POST', '/auth/login', { body: { email, password } });
  if (res.status !== 200) throw new Error(`login: ${res.status} ${JSON.stringify(res.body)}`);
  if (res.body.data.organization.id !== organizationId) throw new Error('memberSession: the user belongs to another workspace first');
  return { cookie: sessionCookieFrom(res)!, csrf: res.body.data.csrf_token, email, password, organizationId, userId: user.id, role };
}

/** The roles that act (a Stakeholder only reads: its own tests sign one in). */
export type WorkingRole = Exclude<Role, 'STAKEHOLDER'>;

/** One signed-in member per working role in a fresh workspace (the Billing Owner signed up). */
export async function workspaceWithRoles(appUrl: string, orm: MikroORM) {
  const owner = await signUpAndLogIn(appUrl, orm);
  const as: Record<WorkingRole, DashboardSession & { userId: string; organizationId: string }> = {
    BILLING_OWNER: owner,
    ACCOUNT_ADMIN: await memberSession(appUrl, orm, owner.organizationId, 'ACCOUNT_ADMIN'),
    TEAM_MANAGER: await memberSession(appUrl, orm, owner.organizationId, 'TEAM_MANAGER'),
    MEMBER: await memberSession(appUrl, orm, owner.organizationId, 'MEMBER'),
  };
  return { organizationId: owner.organizationId, owner, as };
}

/**
 * What sign-up made the workspace ready to page with (src/services/workspace/ready-workspace.ts):
 * its team, "Default service" and "Default" policy. Tests about other teams and services leave these out.
 */
export async function readyWorkspaceOf(orm: MikroORM, organizationId: string): Promise<{ teamId: string; serviceId: string; policyId: string }> {
  const service = await knexOf(orm)('services')
    .select('id', 'team_id', 'escalation_policy_id')
    .where({ organization_id: organizationId, name: 'Default service' })
    .orderBy('created_at')
    .first();
  if (!service) throw new Error(`workspace ${organizationId} has no Default service`);
  return { teamId: service.team_id, serviceId: service.id, policyId: service.escalation_policy_id };
}

/** Every role, for role tables. */
export const ALL_ROLES: WorkingRole[] = ['BILLING_OWNER', 'ACCOUNT_ADMIN', 'TEAM_MANAGER', 'MEMBER'];

/** A dashboard error: this status and code, the spec's body exactly, and (optionally) a message matching `error`. */
export function expectDashboardError(res: { status: number; body: any }, status: number, code: string, error?: RegExp): void {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  expect(res.body).toEqual({ success: false, error: expect.any(String), code, timestamp: expect.any(String) });
  if (error) expect(res.body.error).toMatch(error);
}
