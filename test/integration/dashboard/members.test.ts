import { knexOf } from '../../../src/db/knex';
import type { Role } from '../../../src/domain/roles';
import {
  addUser,
  authenticateApiKey,
  authenticateApiToken,
  createApiKey,
  createApiToken,
  createTeam,
  addTeamMember,
  setPlan,
} from '../../../src/services/workspace';
import {
  ALL_ROLES,
  dashboard,
  dashboardFixture,
  expectDashboardError,
  lastEmailTo,
  memberSession,
  signUpAndLogIn,
  workspaceWithRoles,
} from '../../support/dashboard';

const fx = dashboardFixture();
const { api } = fx;
const db = () => knexOf(fx.stack.orm);
const expectError = expectDashboardError;
const ROLES = ALL_ROLES;
const MANAGERS: Role[] = ['BILLING_OWNER', 'ACCOUNT_ADMIN'];
const roleOf = async (orgId: string, userId: string) =>
  (await db()('memberships').select('role').where({ organization_id: orgId, user_id: userId }).first())?.role;
let n = 0;
const plainMember = (orgId: string, role: Role = 'MEMBER') =>
  addUser(fx.stack.orm, { organizationId: orgId, email: `plain-${Date.now()}-${n++}@example.test`, password: 'correct horse battery', role, verified: true });
const auditActions = async (session: { cookie: string; csrf: string }, action: string) => {
  const res = await api('GET', `/audit-log?action=${action}&limit=200`, { session });
  expect(res.status).toBe(200);
  return res.body.data as Array<{ action: string; target: { id: string }; details: Record<string, unknown> }>;
};

describe('GET /api/members', () => {
  it.each(ROLES)('when a %s lists the members, then every member is there with role, verification, 2FA and join date', async (role) => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const res = await api('GET', '/members', { session: ws.as[role] });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(4);
    expect(res.body.data[0]).toEqual({
      id: ws.owner.userId,
      email: ws.owner.email,
      name: 'Ada Owner',
      role: 'BILLING_OWNER',
      verified: true,
      two_factor_enabled: false,
      joined_at: expect.any(String),
    });
    expect(new Set(res.body.data.map((m: any) => m.role))).toEqual(new Set(ROLES));
    expect(JSON.stringify(res.body)).not.toMatch(/password|totp_secret/);
  });
});

describe('PUT /api/members/{user_id}', () => {
  it.each(ROLES)('when a %s changes a member’s role, then only Billing Owners and Account Admins may', async (role) => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const target = await plainMember(ws.organizationId);
    const res = await api('PUT', `/members/${target.id}`, { session: ws.as[role], body: { role: 'TEAM_MANAGER' } });
    if (MANAGERS.includes(role)) {
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: target.id, role: 'TEAM_MANAGER' });
      expect(await roleOf(ws.organizationId, target.id)).toBe('TEAM_MANAGER');
    } else {
      expectError(res, 403, 'forbidden');
      expect(await roleOf(ws.organizationId, target.id)).toBe('MEMBER');
    }
  });

  it('when a role changes, then the member’s session in this workspace ends and their next login carries the new role; the change is audited', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const member = ws.as.MEMBER;
    const res = await api('PUT', `/members/${member.userId}`, { session: ws.owner, body: { role: 'ACCOUNT_ADMIN' } });
    expect(res.status).toBe(200);
    expect((await api('GET', '/auth/session', { session: member })).status).toBe(401);
    const again = await api('POST', '/auth/login', { body: { email: member.email, password: member.password } });
    expect(again.body.data.role).toBe('ACCOUNT_ADMIN');
    const entries = await auditActions(ws.owner, 'member.role_change');
    expect(entries).toEqual([
      expect.objectContaining({ target: { type: 'user', id: member.userId }, details: { email: member.email, from: 'MEMBER', to: 'ACCOUNT_ADMIN' } }),
    ]);
  });

  it('when an Account Admin tries to make or unmake a Billing Owner, then it is 403 and nothing changes; a Billing Owner may', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const target = await plainMember(ws.organizationId);
    expectError(await api('PUT', `/members/${target.id}`, { session: ws.as.ACCOUNT_ADMIN, body: { role: 'BILLING_OWNER' } }), 403, 'forbidden');
    expectError(await api('PUT', `/members/${ws.owner.userId}`, { session: ws.as.ACCOUNT_ADMIN, body: { role: 'MEMBER' } }), 403, 'forbidden');
    expectError(await api('DELETE', `/members/${ws.owner.userId}`, { session: ws.as.ACCOUNT_ADMIN }), 403, 'forbidden');
    expect(await roleOf(ws.organizationId, target.id)).toBe('MEMBER');
    expect(await roleOf(ws.organizationId, ws.owner.userId)).toBe('BILLING_OWNER');
    const promoted = await api('PUT', `/members/${target.id}`, { session: ws.owner, body: { role: 'BILLING_OWNER' } });
    expect(promoted.status).toBe(200);
    expect(await roleOf(ws.organizationId, target.id)).toBe('BILLING_OWNER');
  });

  it('when the last Billing Owner would be demoted or removed, then it is 409 last_billing_owner; with a second one, demotion works', async () => {
    const owner = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    expectError(await api('PUT', `/members/${owner.userId}`, { session: owner, body: { role: 'ACCOUNT_ADMIN' } }), 409, 'last_billing_owner');
    expectError(await api('DELETE', `/members/${owner.userId}`, { session: owner }), 409, 'last_billing_owner');
    expect(await roleOf(owner.organizationId, owner.userId)).toBe('BILLING_OWNER');
    const second = await plainMember(owner.organizationId, 'BILLING_OWNER');
    const demoted = await api('PUT', `/members/${second.id}`, { session: owner, body: { role: 'MEMBER' } });
    expect(demoted.status).toBe(200);
    expect(await roleOf(owner.organizationId, second.id)).toBe('MEMBER');
  });

  it('when the body is bad (unknown field, wrong type, unknown role, user_id not a UUID), then it is 400 naming the field and nothing changes', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const target = await plainMember(ws.organizationId);
    for (const [path, body, field] of [
      [`/members/${target.id}`, { role: 'TEAM_MANAGER', admin: true }, 'admin'],
      [`/members/${target.id}`, { role: 7 }, 'role'],
      [`/members/${target.id}`, { role: 'OWNER' }, 'role'],
      ['/members/not-a-uuid', { role: 'TEAM_MANAGER' }, 'user_id'],
    ] as const) {
      const res = await api('PUT', path, { session: ws.owner, body });
      expectError(res, 400, 'invalid_request');
      expect(res.body.error).toContain(field);
    }
    expect(await roleOf(ws.organizationId, target.id)).toBe('MEMBER');
  });

  it('when the request has no X-CSRF-Token, then it is 403 csrf_failed and the role is unchanged', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const target = await plainMember(ws.organizationId);
    expectError(await api('PUT', `/members/${target.id}`, { session: ws.owner, csrf: null, body: { role: 'ACCOUNT_ADMIN' } }), 403, 'csrf_failed');
    expectError(await api('DELETE', `/members/${target.id}`, { session: ws.owner, csrf: null }), 403, 'csrf_failed');
    expect(await roleOf(ws.organizationId, target.id)).toBe('MEMBER');
  });

  it('when the user is a member of another workspace only, then it is 404 and they are untouched', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const other = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    expect((await api('PUT', `/members/${other.userId}`, { session: ws.owner, body: { role: 'MEMBER' } })).status).toBe(404);
    expect((await api('DELETE', `/members/${other.userId}`, { session: ws.owner })).status).toBe(404);
    expect(await roleOf(other.organizationId, other.userId)).toBe('BILLING_OWNER');
  });
});

describe('DELETE /api/members/{user_id}', () => {
  it.each(ROLES)('when a %s removes a member, then only Billing Owners and Account Admins may', async (role) => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const target = await plainMember(ws.organizationId);
    const res = await api('DELETE', `/members/${target.id}`, { session: ws.as[role] });
    if (MANAGERS.includes(role)) {
      expect(res.status).toBe(200);
      expect(await roleOf(ws.organizationId, target.id)).toBeUndefined();
    } else {
      expectError(res, 403, 'forbidden');
      expect(await roleOf(ws.organizationId, target.id)).toBe('MEMBER');
    }
  });

  it('when a member is removed, then their session is 401, their API key and API token are revoked, they leave the teams, the user row stays and it is audited', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    await setPlan(fx.stack.orm, ws.organizationId, 'PRO');
    const admin = ws.as.ACCOUNT_ADMIN;
    const key = await createApiKey(fx.stack.orm, { organizationId: ws.organizationId, email: admin.email });
    const token = await createApiToken(fx.stack.orm, { organizationId: ws.organizationId, email: admin.email, access: 'READ_ONLY', days: 7 });
    const team = await createTeam(fx.stack.orm, { organizationId: ws.organizationId, name: 'Payments' });
    await addTeamMember(fx.stack.orm, { teamId: team.id, email: admin.email });
    expect(await authenticateApiKey(fx.stack.orm, key.key)).toBeDefined();

    const res = await api('DELETE', `/members/${admin.userId}`, { session: ws.owner });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ user_id: admin.userId, email: admin.email, sessions_ended: 1, api_tokens_revoked: 1, api_keys_revoked: 1, teams_left: 1 });
    expect(JSON.stringify(res.body)).not.toContain(key.key);

    expectError(await api('GET', '/members', { session: admin }), 401, 'unauthorized');
    expect(await db()('sessions').where({ user_id: admin.userId, organization_id: ws.organizationId }).whereNull('revoked_at')).toHaveLength(0);
    expect(await authenticateApiKey(fx.stack.orm, key.key)).toBeUndefined();
    expect(await db()('api_keys').where({ id: key.id }).first()).toMatchObject({ revoked_at: expect.anything() });
    expect(await authenticateApiToken(fx.stack.orm, token.token)).toEqual({ ok: false, reason: 'invalid_token' });
    expect(await db()('team_members').where({ team_id: team.id })).toHaveLength(0);
    expect(await db()('users').where({ id: admin.userId }).first()).toMatchObject({ email: admin.email });
    // Logging in again finds no workspace for them.
    expect((await api('POST', '/auth/login', { body: { email: admin.email, password: admin.password } })).status).toBe(401);

    const entries = await auditActions(ws.owner, 'member.remove');
    expect(entries).toEqual([
      expect.objectContaining({ target: { type: 'user', id: admin.userId }, details: expect.objectContaining({ email: admin.email, role: 'ACCOUNT_ADMIN' }) }),
    ]);
  });

  it('when a member of two workspaces is removed from one, then their session and membership in the other stay', async () => {
    const a = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    const b = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    const person = await memberSession(fx.stack.urls.app, fx.stack.orm, a.organizationId, 'MEMBER');
    await addUser(fx.stack.orm, { organizationId: b.organizationId, email: person.email, password: person.password, role: 'MEMBER', verified: true });
    expect((await api('DELETE', `/members/${person.userId}`, { session: b })).status).toBe(200);
    expect((await api('GET', '/members', { session: person })).status).toBe(200);
    expect(await roleOf(a.organizationId, person.userId)).toBe('MEMBER');
  });
});

describe('POST /api/auth/resend-verification', () => {
  it('when an unverified account asks, then a new working link is emailed; the fourth ask in an hour is 429 with Retry-After', async () => {
    const owner = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm, { verify: false });
    const before = await db()('account_tokens').where({ user_id: owner.userId, purpose: 'verify_email' });
    const res = await api('POST', '/auth/resend-verification', { session: owner });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const after = await db()('account_tokens').where({ user_id: owner.userId, purpose: 'verify_email' });
    expect(after).toHaveLength(before.length + 1);
    const mail = await lastEmailTo(fx.stack.orm, owner.email);
    const token = mail!.body.match(/\/verify\?token=([A-Za-z0-9_-]+)/)![1];
    expect(JSON.stringify(res.body)).not.toContain(token);

    expect((await api('POST', '/auth/resend-verification', { session: owner })).status).toBe(200);
    expect((await api('POST', '/auth/resend-verification', { session: owner })).status).toBe(200);
    const limited = await api('POST', '/auth/resend-verification', { session: owner });
    expectError(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(await db()('account_tokens').where({ user_id: owner.userId, purpose: 'verify_email' })).toHaveLength(before.length + 3);

    // The resent link verifies the address (any of the live ones works).
    expect((await api('POST', '/auth/verify', { body: { token } })).status).toBe(200);
  });

  it.each(ROLES)('when an unverified %s asks, then a link is emailed to them (any role may)', async (role) => {
    const owner = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    const me =
      role === 'BILLING_OWNER'
        ? await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm, { verify: false })
        : await memberSession(fx.stack.urls.app, fx.stack.orm, owner.organizationId, role, { verified: false });
    expect((await api('POST', '/auth/resend-verification', { session: me })).status).toBe(200);
    expect((await lastEmailTo(fx.stack.orm, me.email))?.body).toMatch(/\/verify\?token=/);
  });

  it('when the account is already verified, then it is 409 already_verified and nothing is sent', async () => {
    const owner = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    const before = (await lastEmailTo(fx.stack.orm, owner.email))!.body;
    expectError(await api('POST', '/auth/resend-verification', { session: owner }), 409, 'already_verified');
    expect((await lastEmailTo(fx.stack.orm, owner.email))!.body).toBe(before);
  });

  it('when there is no session or no CSRF header, then it is 401 or 403 csrf_failed and nothing is sent', async () => {
    const owner = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm, { verify: false });
    const count = async () => (await db()('account_tokens').where({ user_id: owner.userId })).length;
    const before = await count();
    expectError(await dashboard(fx.stack.urls.app, 'POST', '/auth/resend-verification'), 401, 'unauthorized');
    expectError(await api('POST', '/auth/resend-verification', { session: owner, csrf: null }), 403, 'csrf_failed');
    expect(await count()).toBe(before);
  });
});

describe('GET /api/openapi.json', () => {
  it('when the document is read, then every members, invitations, teams and plan route is in it with its success schema', async () => {
    const res = await api('GET', '/openapi.json');
    expect(res.status).toBe(200);
    const expected: Array<[string, string, string]> = [
      ['/api/members', 'get', '200'],
      ['/api/members/{user_id}', 'put', '200'],
      ['/api/members/{user_id}', 'delete', '200'],
      ['/api/invitations', 'get', '200'],
      ['/api/invitations', 'post', '201'],
      ['/api/invitations/{id}', 'delete', '200'],
      ['/api/invitations/accept', 'post', '200'],
      ['/api/auth/resend-verification', 'post', '200'],
      ['/api/plan', 'get', '200'],
      ['/api/plan', 'put', '200'],
      ['/api/teams', 'get', '200'],
      ['/api/teams', 'post', '201'],
      ['/api/teams/{id}', 'get', '200'],
      ['/api/teams/{id}', 'put', '200'],
      ['/api/teams/{id}', 'delete', '200'],
      ['/api/teams/{id}/members', 'post', '200'],
      ['/api/teams/{id}/members/{user_id}', 'delete', '200'],
    ];
    for (const [path, method, status] of expected) {
      expect(res.body.paths[path]?.[method]?.responses?.[status]?.content?.['application/json']?.schema).toBeDefined();
    }
    expect(res.body.paths['/api/invitations/accept'].post.security).toEqual([]);
  });
});
