import { hashSecret } from '../../../src/domain/api-token';
import { knexOf } from '../../../src/db/knex';
import { setPlan } from '../../../src/services/workspace';
import { request } from '../../support/http';
import { rowCount } from '../../support/workspace';
import {
  dashboardFixture,
  expectDashboardError,
  memberSession,
  SESSION_COOKIE,
  type DashboardSession,
  workspaceWithRoles,
  type WorkingRole,
} from '../../support/dashboard';

const fx = dashboardFixture();
const { api } = fx;
const db = () => knexOf(fx.stack.orm);
const expectError = expectDashboardError;
const ROLE_TABLE: Array<[WorkingRole, boolean]> = [
  ['BILLING_OWNER', true],
  ['ACCOUNT_ADMIN', true],
  ['TEAM_MANAGER', false],
  ['MEMBER', false],
];
const newToken = (s: DashboardSession, extra: Record<string, unknown> = {}) =>
  api('POST', '/tokens', { session: s, body: { access: 'READ_WRITE', days: 30, password: s.password, ...extra } });
const newKey = (s: DashboardSession, extra: Record<string, unknown> = {}) => api('POST', '/api-keys', { session: s, body: { password: s.password, ...extra } });
const audit = async (admin: DashboardSession, action: string) => (await api('GET', `/audit-log?action=${action}`, { session: admin })).body.data as any[];
const proWorkspace = async () => {
  const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
  await setPlan(fx.stack.orm, ws.organizationId, 'PRO');
  return ws;
};

describe('customer API tokens', () => {
  it.each(ROLE_TABLE)('when a %s lists, creates and revokes tokens, then allowed=%s (others 403 forbidden)', async (role, allowed) => {
    const ws = await proWorkspace();
    const me = ws.as[role];
    const mine = await newToken(ws.owner);
    const list = await api('GET', '/tokens', { session: me });
    const create = await newToken(me);
    const revoke = await api('DELETE', `/tokens/${mine.body.data.id}`, { session: me });
    if (allowed) {
      expect([list.status, create.status, revoke.status]).toEqual([200, 201, 200]);
      expect(list.body.data.map((t: any) => t.id)).toContain(mine.body.data.id);
    } else {
      for (const res of [list, create, revoke]) expectError(res, 403, 'forbidden');
      expect(await db()('api_tokens').where({ id: mine.body.data.id }).first()).toMatchObject({ revoked_at: null });
    }
  });

  it('when an admin creates a token, then the plaintext is answered once and never appears in the list, the audit log or the logs', async () => {
    const ws = await proWorkspace();
    const created = await newToken(ws.owner, { access: 'READ_ONLY', days: 7, name: 'grafana' });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.any(String),
      token: expect.stringMatching(/^klx_/),
      name: 'grafana',
      access: 'READ_ONLY',
      expires_at: expect.any(String),
    });
    const token = created.body.data.token as string;
    expect(await db()('api_tokens').where({ id: created.body.data.id }).first()).toMatchObject({ token_hash: hashSecret(token), name: 'grafana' });

    const list = await api('GET', '/tokens', { session: ws.owner });
    expect(list.body.data.find((t: any) => t.id === created.body.data.id)).toEqual({
      id: created.body.data.id,
      name: 'grafana',
      prefix: token.slice(0, 8),
      access: 'READ_ONLY',
      user: { id: ws.owner.userId, email: ws.owner.email },
      status: 'active',
      created_at: expect.any(String),
      expires_at: created.body.data.expires_at,
      revoked_at: null,
    });
    await api('DELETE', `/tokens/${created.body.data.id}`, { session: ws.owner });

    const [made] = await audit(ws.owner, 'api_token.create');
    expect(made).toMatchObject({
      target: { type: 'api_token', id: created.body.data.id },
      details: { access: 'READ_ONLY', days: 7, name: 'grafana', prefix: token.slice(0, 8) },
    });
    const [revoked] = await audit(ws.owner, 'api_token.revoke');
    expect(revoked).toMatchObject({ target: { type: 'api_token', id: created.body.data.id } });
    const everything = JSON.stringify([list.body, (await api('GET', '/audit-log', { session: ws.owner })).body]) + fx.stack.logs.lines.join('\n');
    for (const secret of [token, hashSecret(token), ws.owner.password]) expect(everything).not.toContain(secret);
  });

  it('when no factor is sent and the session has not stepped up, then it is 403 step_up_required; a wrong one is 403 step_up_failed; nothing is created', async () => {
    const ws = await proWorkspace();
    const before = await rowCount(fx.stack.orm, 'api_tokens');
    expectError(await api('POST', '/tokens', { session: ws.owner, body: { access: 'READ_WRITE', days: 30 } }), 403, 'step_up_required');
    expectError(await newToken(ws.owner, { password: 'not the password' }), 403, 'step_up_failed');
    expectError(await newToken(ws.owner, { password: undefined, recovery_code: 'aaaa-aaaa-aaaa' }), 403, 'step_up_failed');
    expect(await rowCount(fx.stack.orm, 'api_tokens')).toBe(before);
  });

  it('when the step-up is 4 minutes old, then a token can be made without a factor; 6 minutes old, it is 403 step_up_required', async () => {
    const ws = await proWorkspace();
    expect((await api('POST', '/auth/step-up', { session: ws.owner, body: { password: ws.owner.password } })).status).toBe(200);
    const setAge = (minutes: number) =>
      db()('sessions')
        .update({ stepped_up_at: new Date(Date.now() - minutes * 60_000) })
        .where({ token_hash: hashSecret(ws.owner.cookie) });
    await setAge(4);
    expect((await api('POST', '/tokens', { session: ws.owner, body: { access: 'READ_ONLY', days: 1 } })).status).toBe(201);
    await setAge(6);
    expectError(await api('POST', '/tokens', { session: ws.owner, body: { access: 'READ_ONLY', days: 1 } }), 403, 'step_up_required');
    // A step-up belongs to its session: another session of the same person has not stepped up.
    const other = await api('POST', '/auth/login', { body: { email: ws.owner.email, password: ws.owner.password } });
    const otherSession = {
      cookie: other.headers
        .getSetCookie()[0]
        .split(';')[0]
        .slice(SESSION_COOKIE.length + 1),
      csrf: other.body.data.csrf_token,
    };
    expectError(await api('POST', '/tokens', { session: otherSession, body: { access: 'READ_ONLY', days: 1 } }), 403, 'step_up_required');
  });

  it.each(['FREE', 'STARTER'] as const)(
    'when the workspace is on %s, then creating is 403 plan_limit_reached, but an admin can still list and revoke',
    async (plan) => {
      const ws = await proWorkspace();
      const made = await newToken(ws.owner);
      await setPlan(fx.stack.orm, ws.organizationId, plan);
      expectError(await newToken(ws.owner), 403, 'plan_limit_reached');
      expect((await api('GET', '/tokens', { session: ws.owner })).status).toBe(200);
      expect((await api('DELETE', `/tokens/${made.body.data.id}`, { session: ws.as.ACCOUNT_ADMIN })).status).toBe(200);
      expect(await db()('api_tokens').where({ id: made.body.data.id }).first()).toMatchObject({ revoked_at: expect.anything() });
    },
  );

  it('when an admin has not verified their email, then creating is 403 email_unverified', async () => {
    const ws = await proWorkspace();
    const unverified = await memberSession(fx.stack.urls.app, fx.stack.orm, ws.organizationId, 'ACCOUNT_ADMIN', { verified: false });
    expectError(await newToken(unverified), 403, 'email_unverified');
  });

  it("when another workspace's token is revoked, then it is 404 and the token still works", async () => {
    const ws = await proWorkspace();
    const other = await proWorkspace();
    const theirs = await newToken(other.owner);
    expectError(await api('DELETE', `/tokens/${theirs.body.data.id}`, { session: ws.owner }), 404, 'not_found');
    expect(
      (await request('GET', `${fx.stack.urls.app}/api/v1/organizations/${other.organizationId}/incidents`, { token: theirs.body.data.token })).status,
    ).toBe(200);
    expect(await audit(ws.owner, 'api_token.revoke')).toEqual([]);
  });

  it('when a token is created or revoked without X-CSRF-Token, then it is 403 csrf_failed and nothing changes', async () => {
    const ws = await proWorkspace();
    const before = await rowCount(fx.stack.orm, 'api_tokens');
    expectError(
      await api('POST', '/tokens', { session: ws.owner, csrf: null, body: { access: 'READ_WRITE', days: 30, password: ws.owner.password } }),
      403,
      'csrf_failed',
    );
    expect(await rowCount(fx.stack.orm, 'api_tokens')).toBe(before);
    const made = await newToken(ws.owner);
    expectError(await api('DELETE', `/tokens/${made.body.data.id}`, { session: ws.owner, csrf: null }), 403, 'csrf_failed');
    expect(await db()('api_tokens').where({ id: made.body.data.id }).first()).toMatchObject({ revoked_at: null });
  });

  it.each([
    ['an unknown field', { scopes: ['all'] }, 'scopes'],
    ['days over 30', { days: 31 }, 'days'],
    ['days of the wrong type', { days: '7' }, 'days'],
    ['an unknown access', { access: 'ADMIN' }, 'access'],
    ['a name too long', { name: 'n'.repeat(101) }, 'name'],
    ['a password too long', { password: 'p'.repeat(257) }, 'password'],
  ])('when a token body has %s, then it is 400 naming the field and nothing is created', async (_what, change, field) => {
    const ws = await proWorkspace();
    const before = await rowCount(fx.stack.orm, 'api_tokens');
    const res = await newToken(ws.owner, change);
    expectError(res, 400, 'invalid_request');
    expect(res.body.error).toContain(field);
    expect(await rowCount(fx.stack.orm, 'api_tokens')).toBe(before);
  });
});

describe('API keys', () => {
  it.each(ROLE_TABLE)(
    'when a %s creates a key, lists keys and revokes another member’s, then each may create their own; seeing and revoking others’ is allowed=%s',
    async (role, admin) => {
      const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
      const me = ws.as[role];
      const someoneElse = role === 'MEMBER' ? ws.as.TEAM_MANAGER : ws.as.MEMBER;
      const theirs = await newKey(someoneElse, { name: 'theirs' });
      const mine = await newKey(me, { name: 'mine' });
      expect(mine.status).toBe(201);
      expect(mine.body.data).toEqual({ id: expect.any(String), key: expect.stringMatching(/^klxk_[A-Za-z0-9_-]{43}$/), name: 'mine' });

      const listed = (await api('GET', '/api-keys', { session: me })).body.data.map((k: any) => k.id);
      expect(listed).toContain(mine.body.data.id);
      expect(listed.includes(theirs.body.data.id)).toBe(admin);

      const revokeTheirs = await api('DELETE', `/api-keys/${theirs.body.data.id}`, { session: me });
      if (admin) expect(revokeTheirs.status).toBe(200);
      else expectError(revokeTheirs, 403, 'forbidden');
      expect((await api('DELETE', `/api-keys/${mine.body.data.id}`, { session: me })).status).toBe(200);
    },
  );

  it('when a member makes a key, then it works on the API-key surface (and nowhere else) until revoked, and both changes are audited without the key', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const made = await newKey(ws.as.MEMBER);
    expect(made.body.data.name).toBe('API key');
    const key = made.body.data.key as string;
    const webhooks = `${fx.stack.urls.apiKey}/v1/webhooks`;
    expect((await request('GET', webhooks, { token: key })).status).toBe(200);
    expect((await request('GET', `${fx.stack.urls.app}/api/api-keys`, { token: key })).status).toBe(401);
    expect((await request('GET', `${fx.stack.urls.app}/api/v1/organizations/${ws.organizationId}/incidents`, { token: key })).status).toBe(401);

    const listed = await api('GET', '/api-keys', { session: ws.as.MEMBER });
    expect(listed.body.data).toEqual([
      {
        id: made.body.data.id,
        name: 'API key',
        prefix: key.slice(0, 9),
        user: { id: ws.as.MEMBER.userId, email: ws.as.MEMBER.email },
        status: 'active',
        created_at: expect.any(String),
        last_used_at: expect.any(String),
        revoked_at: null,
      },
    ]);
    expect((await api('DELETE', `/api-keys/${made.body.data.id}`, { session: ws.as.MEMBER })).status).toBe(200);
    expect((await request('GET', webhooks, { token: key })).status).toBe(401);

    const [created] = await audit(ws.owner, 'api_key.create');
    expect(created).toMatchObject({
      actor: { user_id: ws.as.MEMBER.userId },
      target: { type: 'api_key', id: made.body.data.id },
      details: { name: 'API key', prefix: key.slice(0, 9) },
    });
    expect(await audit(ws.owner, 'api_key.revoke')).toHaveLength(1);
    const everything = JSON.stringify([listed.body, (await api('GET', '/audit-log', { session: ws.owner })).body]) + fx.stack.logs.lines.join('\n');
    expect(everything).not.toContain(key);
    expect(everything).not.toContain(hashSecret(key));
  });

  it('when a key is asked for without a step-up, with a wrong factor, by an unverified member or without CSRF, then it is refused and nothing is created', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const unverified = await memberSession(fx.stack.urls.app, fx.stack.orm, ws.organizationId, 'MEMBER', { verified: false });
    const before = await rowCount(fx.stack.orm, 'api_keys');
    expectError(await api('POST', '/api-keys', { session: ws.as.MEMBER, body: { name: 'x' } }), 403, 'step_up_required');
    expectError(await newKey(ws.as.MEMBER, { password: 'not the password' }), 403, 'step_up_failed');
    expectError(await newKey(unverified), 403, 'email_unverified');
    expectError(await api('POST', '/api-keys', { session: ws.as.MEMBER, csrf: null, body: { password: ws.as.MEMBER.password } }), 403, 'csrf_failed');
    for (const [change, field] of [
      [{ owner: 'x' }, 'owner'],
      [{ name: 'n'.repeat(101) }, 'name'],
      [{ name: 5 }, 'name'],
    ] as const) {
      const res = await newKey(ws.as.MEMBER, change);
      expectError(res, 400, 'invalid_request');
      expect(res.body.error).toContain(field);
    }
    expect(await rowCount(fx.stack.orm, 'api_keys')).toBe(before);
  });

  it("when another workspace's key is revoked, even by an admin, then it is 404 and the key still works", async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const other = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const theirs = await newKey(other.as.MEMBER);
    expectError(await api('DELETE', `/api-keys/${theirs.body.data.id}`, { session: ws.owner }), 404, 'not_found');
    expect((await request('GET', `${fx.stack.urls.apiKey}/v1/webhooks`, { token: theirs.body.data.key })).status).toBe(200);
  });

  it('when the session cookie is sent to the API-key surface with a POST, then it is 401 there too', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const headers = { Cookie: `${SESSION_COOKIE}=${ws.owner.cookie}`, 'X-CSRF-Token': ws.owner.csrf };
    const res = await request('POST', `${fx.stack.urls.apiKey}/v1/webhooks`, { headers, body: { name: 'sneaky' } });
    expect(res.status).toBe(401);
  });
});
