import { randomUUID } from 'node:crypto';
import { hashSecret } from '../../../src/domain/api-token';
import { knexOf } from '../../../src/db/knex';
import type { Role } from '../../../src/domain/roles';
import { addUser } from '../../../src/services/workspace';
import { ALL_ROLES, dashboardFixture, expectDashboardError, lastEmailTo, sessionCookieFrom, signUpAndLogIn, workspaceWithRoles } from '../../support/dashboard';

const fx = dashboardFixture();
const { api } = fx;
const db = () => knexOf(fx.stack.orm);
const expectError = expectDashboardError;
const ROLES = ALL_ROLES;
const MANAGERS: Role[] = ['BILLING_OWNER', 'ACCOUNT_ADMIN'];
const PASSWORD = 'a long enough passphrase';
const newEmail = () => `invitee-${randomUUID()}@example.test`;
const invitationsTo = (email: string) => db()('invitations').where({ email });

/** The token of the invitation link in the newest email to an address. */
async function invitationTokenFor(email: string): Promise<string> {
  const mail = await lastEmailTo(fx.stack.orm, email);
  const match = mail?.body.match(/\/invitations\/accept\?token=([A-Za-z0-9_-]+)/);
  if (!match) throw new Error(`no invitation link emailed to ${email}`);
  return match[1];
}

const auditActions = async (session: { cookie: string; csrf: string }, action: string) => {
  const res = await api('GET', `/audit-log?action=${action}&limit=200`, { session });
  expect(res.status).toBe(200);
  return res.body.data as Array<{ action: string; actor: { user_id: string }; target: { id: string }; details: Record<string, unknown> }>;
};

describe('POST /api/invitations', () => {
  it.each(ROLES)('when a %s invites someone, then only Billing Owners and Account Admins may', async (role) => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const email = newEmail();
    const res = await api('POST', '/invitations', { session: ws.as[role], body: { email, role: 'MEMBER' } });
    if (MANAGERS.includes(role)) {
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({
        id: expect.any(String),
        email,
        role: 'MEMBER',
        invited_by: { id: ws.as[role].userId, email: ws.as[role].email },
        created_at: expect.any(String),
        expires_at: expect.any(String),
      });
      expect(await invitationsTo(email)).toHaveLength(1);
    } else {
      expectError(res, 403, 'forbidden');
      expect(await invitationsTo(email)).toHaveLength(0);
      expect(await lastEmailTo(fx.stack.orm, email)).toBeUndefined();
    }
  });

  it('when someone is invited, then a link valid 7 days is emailed, only its hash is stored, the answer holds no token, and it is audited', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const email = newEmail();
    const res = await api('POST', '/invitations', { session: ws.owner, body: { email: email.toUpperCase(), role: 'TEAM_MANAGER' } });
    expect(res.status).toBe(201);
    expect(res.body.data.email).toBe(email);
    const mail = await lastEmailTo(fx.stack.orm, email);
    expect(mail?.body).toContain(`${fx.stack.urls.app}/invitations/accept?token=`);
    const token = await invitationTokenFor(email);
    expect(JSON.stringify(res.body)).not.toContain(token);
    const row = await db()('invitations').where({ id: res.body.data.id }).first();
    expect(row.token_hash).toBe(hashSecret(token));
    const days = (new Date(row.expires_at).getTime() - new Date(row.created_at).getTime()) / 86_400_000;
    expect(days).toBe(7);
    const entries = await auditActions(ws.owner, 'invitation.create');
    expect(entries).toEqual([expect.objectContaining({ target: { type: 'invitation', id: res.body.data.id }, details: { email, role: 'TEAM_MANAGER' } })]);
    expect(JSON.stringify(entries)).not.toContain(token);
  });

  it('when the inviter has not verified their address, then it is 403 email_unverified and nothing is stored or sent', async () => {
    const owner = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm, { verify: false });
    const email = newEmail();
    expectError(await api('POST', '/invitations', { session: owner, body: { email, role: 'MEMBER' } }), 403, 'email_unverified');
    expect(await invitationsTo(email)).toHaveLength(0);
    expect(await lastEmailTo(fx.stack.orm, email)).toBeUndefined();
  });

  it('when an Account Admin invites a Billing Owner, then it is 403; a Billing Owner may', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const email = newEmail();
    expectError(await api('POST', '/invitations', { session: ws.as.ACCOUNT_ADMIN, body: { email, role: 'BILLING_OWNER' } }), 403, 'forbidden');
    expect(await invitationsTo(email)).toHaveLength(0);
    expect((await api('POST', '/invitations', { session: ws.owner, body: { email, role: 'BILLING_OWNER' } })).status).toBe(201);
  });

  it('when the address is already a member, then it is 409 already_member', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    expectError(await api('POST', '/invitations', { session: ws.owner, body: { email: ws.as.MEMBER.email, role: 'MEMBER' } }), 409, 'already_member');
    expect(await invitationsTo(ws.as.MEMBER.email)).toHaveLength(0);
  });

  it('when an address is invited again, then the earlier invitation is replaced: its link stops working and it takes no second seat', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const email = newEmail();
    await api('POST', '/invitations', { session: ws.owner, body: { email, role: 'MEMBER' } });
    const first = await invitationTokenFor(email);
    expect((await api('POST', '/invitations', { session: ws.owner, body: { email, role: 'TEAM_MANAGER' } })).status).toBe(201);
    const list = await api('GET', '/invitations', { session: ws.owner });
    expect(list.body.data.filter((i: any) => i.email === email)).toEqual([expect.objectContaining({ role: 'TEAM_MANAGER' })]);
    expectError(await api('POST', '/invitations/accept', { body: { token: first, password: PASSWORD } }), 400, 'invitation_invalid');
    const accepted = await api('POST', '/invitations/accept', { body: { token: await invitationTokenFor(email), password: PASSWORD } });
    expect(accepted.body.data.role).toBe('TEAM_MANAGER');
  });

  it('when the FREE plan’s 5 seats are taken by members and pending invitations, then another invitation is 403 plan_limit_reached until one is revoked', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm); // 4 members
    const fifth = await api('POST', '/invitations', { session: ws.owner, body: { email: newEmail(), role: 'MEMBER' } });
    expect(fifth.status).toBe(201);
    const sixth = newEmail();
    expectError(await api('POST', '/invitations', { session: ws.owner, body: { email: sixth, role: 'MEMBER' } }), 403, 'plan_limit_reached');
    expect(await invitationsTo(sixth)).toHaveLength(0);
    expect(await lastEmailTo(fx.stack.orm, sixth)).toBeUndefined();
    expect((await api('DELETE', `/invitations/${fifth.body.data.id}`, { session: ws.owner })).status).toBe(200);
    expect((await api('POST', '/invitations', { session: ws.owner, body: { email: sixth, role: 'MEMBER' } })).status).toBe(201);
  });

  it('when the body is bad (unknown field, wrong type, too long, unknown role), then it is 400 naming the field and nothing is stored', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const email = newEmail();
    for (const [body, field] of [
      [{ email, role: 'MEMBER', note: 'hi' }, 'note'],
      [{ email: 42, role: 'MEMBER' }, 'email'],
      [{ email: `${'a'.repeat(320)}@example.test`, role: 'MEMBER' }, 'email'],
      [{ email, role: 'ROOT' }, 'role'],
    ] as const) {
      const res = await api('POST', '/invitations', { session: ws.owner, body });
      expectError(res, 400, 'invalid_request');
      expect(res.body.error).toContain(field);
    }
    expect(await db()('invitations').where({ organization_id: ws.organizationId })).toHaveLength(0);
  });

  it('when the request has no X-CSRF-Token, then it is 403 csrf_failed and nothing is stored or sent', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const email = newEmail();
    expectError(await api('POST', '/invitations', { session: ws.owner, csrf: null, body: { email, role: 'MEMBER' } }), 403, 'csrf_failed');
    expect(await invitationsTo(email)).toHaveLength(0);
    expect(await lastEmailTo(fx.stack.orm, email)).toBeUndefined();
  });
});

describe('GET and DELETE /api/invitations', () => {
  it.each(ROLES)('when a %s lists and revokes invitations, then any member may list; only Billing Owners and Account Admins may revoke', async (role) => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const email = newEmail();
    const created = await api('POST', '/invitations', { session: ws.owner, body: { email, role: 'MEMBER' } });
    const list = await api('GET', '/invitations', { session: ws.as[role] });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([created.body.data]);
    const res = await api('DELETE', `/invitations/${created.body.data.id}`, { session: ws.as[role] });
    const row = await db()('invitations').where({ id: created.body.data.id }).first();
    if (MANAGERS.includes(role)) {
      expect(res.status).toBe(200);
      expect(row.revoked_at).not.toBeNull();
      expect((await api('GET', '/invitations', { session: ws.as[role] })).body.data).toEqual([]);
    } else {
      expectError(res, 403, 'forbidden');
      expect(row.revoked_at).toBeNull();
    }
  });

  it('when an invitation is revoked, then its link is refused and the revocation is audited; without CSRF nothing is revoked; another workspace’s is 404', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const email = newEmail();
    const created = await api('POST', '/invitations', { session: ws.owner, body: { email, role: 'MEMBER' } });
    const token = await invitationTokenFor(email);
    const other = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    expect((await api('DELETE', `/invitations/${created.body.data.id}`, { session: other })).status).toBe(404);
    expectError(await api('DELETE', `/invitations/${created.body.data.id}`, { session: ws.owner, csrf: null }), 403, 'csrf_failed');
    expect((await db()('invitations').where({ id: created.body.data.id }).first()).revoked_at).toBeNull();
    expect((await api('DELETE', `/invitations/${created.body.data.id}`, { session: ws.owner })).status).toBe(200);
    expectError(await api('POST', '/invitations/accept', { body: { token, password: PASSWORD } }), 400, 'invitation_invalid');
    const entries = await auditActions(ws.owner, 'invitation.revoke');
    expect(entries).toEqual([expect.objectContaining({ target: { type: 'invitation', id: created.body.data.id }, details: { email, role: 'MEMBER' } })]);
  });
});

describe('POST /api/invitations/accept', () => {
  it('when a new person accepts with a name and password, then they are a verified member with the invited role, can log in, and it is audited', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const email = newEmail();
    await api('POST', '/invitations', { session: ws.as.ACCOUNT_ADMIN, body: { email, role: 'TEAM_MANAGER' } });
    const token = await invitationTokenFor(email);
    const res = await api('POST', '/invitations/accept', { body: { token, name: 'Grace Invitee', password: PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      data: { organization: { id: ws.organizationId }, role: 'TEAM_MANAGER', user: { email, new_account: true } },
    });
    expect(JSON.stringify(res.body)).not.toContain(PASSWORD);

    const login = await api('POST', '/auth/login', { body: { email, password: PASSWORD } });
    expect(login.status).toBe(200);
    expect(login.body.data).toMatchObject({
      user: { email, name: 'Grace Invitee', verified: true },
      organization: { id: ws.organizationId },
      role: 'TEAM_MANAGER',
    });
    const session = { cookie: sessionCookieFrom(login)!, csrf: login.body.data.csrf_token };
    expect((await api('GET', '/members', { session })).body.data).toHaveLength(5);
    expect((await api('GET', '/invitations', { session: ws.owner })).body.data).toEqual([]);

    const entries = await auditActions(ws.owner, 'invitation.accept');
    expect(entries).toEqual([
      expect.objectContaining({
        actor: expect.objectContaining({ user_id: res.body.data.user.id }),
        details: { email, role: 'TEAM_MANAGER', new_account: true },
      }),
    ]);
  });

  it('when the link is used a second time, has expired or is unknown, then it is 400 invitation_invalid with one message', async () => {
    const ws = { owner: await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm) };
    const used = newEmail();
    await api('POST', '/invitations', { session: ws.owner, body: { email: used, role: 'MEMBER' } });
    const usedToken = await invitationTokenFor(used);
    expect((await api('POST', '/invitations/accept', { body: { token: usedToken, password: PASSWORD } })).status).toBe(200);
    const expired = newEmail();
    const created = await api('POST', '/invitations', { session: ws.owner, body: { email: expired, role: 'MEMBER' } });
    await db()('invitations')
      .update({ expires_at: new Date(Date.now() - 1000) })
      .where({ id: created.body.data.id });
    const answers = [];
    for (const token of [usedToken, await invitationTokenFor(expired), 'x'.repeat(43)]) {
      const res = await api('POST', '/invitations/accept', { body: { token, password: PASSWORD } });
      expectError(res, 400, 'invitation_invalid');
      answers.push(res.body.error);
    }
    expect(new Set(answers).size).toBe(1);
    expect(await db()('users').where({ email: expired })).toHaveLength(0);
  });

  it('when someone with an account accepts, then they must give their current password; with it they join with the invited role', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const elsewhere = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    await api('POST', '/invitations', { session: ws.owner, body: { email: elsewhere.email, role: 'ACCOUNT_ADMIN' } });
    const token = await invitationTokenFor(elsewhere.email);
    const none = await api('POST', '/invitations/accept', { body: { token } });
    expectError(none, 400, 'invalid_request');
    expect(none.body.error).toContain('password');
    expectError(await api('POST', '/invitations/accept', { body: { token, password: 'not the password at all' } }), 401, 'unauthorized');
    expect(await db()('memberships').where({ organization_id: ws.organizationId, user_id: elsewhere.userId })).toHaveLength(0);

    const res = await api('POST', '/invitations/accept', { body: { token, password: elsewhere.password } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ role: 'ACCOUNT_ADMIN', user: { id: elsewhere.userId, new_account: false } });
    expect(await db()('memberships').where({ organization_id: ws.organizationId, user_id: elsewhere.userId }).first()).toMatchObject({ role: 'ACCOUNT_ADMIN' });
    // Their own workspace and password are untouched: login still takes their first membership.
    const login = await api('POST', '/auth/login', { body: { email: elsewhere.email, password: elsewhere.password } });
    expect(login.body.data.organization.id).toBe(elsewhere.organizationId);
  });

  it('when a new person gives a weak password or none, then it is 400 naming password and no account is created', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const email = newEmail();
    await api('POST', '/invitations', { session: ws.owner, body: { email, role: 'MEMBER' } });
    const token = await invitationTokenFor(email);
    for (const body of [{ token }, { token, password: 'short' }]) {
      const res = await api('POST', '/invitations/accept', { body });
      expectError(res, 400, 'invalid_request');
      expect(res.body.error).toContain('password');
    }
    const unknown = await api('POST', '/invitations/accept', { body: { token, password: PASSWORD, role: 'BILLING_OWNER' } });
    expectError(unknown, 400, 'invalid_request');
    expect(unknown.body.error).toContain('role');
    expect(await db()('users').where({ email })).toHaveLength(0);
    expect((await api('POST', '/invitations/accept', { body: { token, password: PASSWORD } })).status).toBe(200);
  });

  it('when the workspace filled up after the invitation was sent, then accepting is 403 plan_limit_reached and nothing is created', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm); // 4 members
    const email = newEmail();
    await api('POST', '/invitations', { session: ws.owner, body: { email, role: 'MEMBER' } });
    const token = await invitationTokenFor(email);
    await addUser(fx.stack.orm, { organizationId: ws.organizationId, email: newEmail(), password: PASSWORD, role: 'MEMBER', verified: true }); // added by an operator: 5 members
    expectError(await api('POST', '/invitations/accept', { body: { token, password: PASSWORD } }), 403, 'plan_limit_reached');
    expect(await db()('users').where({ email })).toHaveLength(0);
    expect((await db()('invitations').where({ email }).first()).accepted_at).toBeNull();
  });

  it('when the accept request comes from another site, then it is 403 csrf_failed and nothing is created; from the app itself it needs no session', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const email = newEmail();
    await api('POST', '/invitations', { session: ws.as.ACCOUNT_ADMIN, body: { email, role: 'MEMBER' } });
    const token = await invitationTokenFor(email);
    expectError(
      await api('POST', '/invitations/accept', { body: { token, password: PASSWORD }, headers: { Origin: 'https://evil.example' } }),
      403,
      'csrf_failed',
    );
    expect(await db()('users').where({ email })).toHaveLength(0);
    const res = await api('POST', '/invitations/accept', { body: { token, password: PASSWORD }, headers: { Origin: new URL(fx.stack.urls.app).origin } });
    expect(res.status).toBe(200);
  });
});
