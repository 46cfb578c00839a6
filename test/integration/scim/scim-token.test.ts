import { hashSecret } from '../../../src/domain/api-token';
import { knexOf } from '../../../src/db/knex';
import { setPlan } from '../../../src/services/workspace';
import { dashboardFixture, expectDashboardError, workspaceWithRoles } from '../../support/dashboard';
import { businessWorkspaceWithScim, expectScimError, scimClient } from '../../support/scim';

const fx = dashboardFixture();
const db = () => knexOf(fx.stack.orm);
const issue = (session: { cookie: string; csrf: string; password: string }, body: Record<string, unknown> = { password: session.password }) =>
  fx.api('POST', '/sso/scim-token', { session, body });

describe('POST /api/sso/scim-token', () => {
  it('when a Billing Owner issues a token, then it is shown once, stored only as its hash, audited by prefix, and works on /scim/v2', async () => {
    const { owner, token, scim } = await businessWorkspaceWithScim(fx.stack.urls.app, fx.stack.orm);
    expect(token).toMatch(/^klxscim_[\w-]{43}$/);
    const row = await db()('scim_tokens').where({ organization_id: owner.organizationId }).first();
    expect(row).toMatchObject({ token_hash: hashSecret(token), display_prefix: token.slice(0, 12), created_by: owner.userId });
    expect((await scim('GET', '/Users')).status).toBe(200);
    const [entry] = (await fx.api('GET', '/audit-log?action=scim_token.create', { session: owner })).body.data;
    expect(entry).toMatchObject({ actor: { label: owner.email }, details: { prefix: token.slice(0, 12), replaced_previous: false } });
    const everything = JSON.stringify((await fx.api('GET', '/audit-log', { session: owner })).body) + fx.stack.logs.lines.join('\n');
    expect(everything).not.toContain(token);
    expect(everything).not.toContain(hashSecret(token));
  });

  it('when a new token is issued, then it replaces the previous one at once (401), and DELETE revokes it (401); a second DELETE is 404', async () => {
    const { owner, token: first } = await businessWorkspaceWithScim(fx.stack.urls.app, fx.stack.orm);
    const second = (await issue(owner)).body.data.token as string;
    expect(second).not.toBe(first);
    expectScimError(await scimClient(fx.stack.urls.app, first)('GET', '/Users'), 401);
    expect((await scimClient(fx.stack.urls.app, second)('GET', '/Users')).status).toBe(200);
    expect(await db()('scim_tokens').where({ organization_id: owner.organizationId }).count({ n: '*' })).toEqual([{ n: '1' }]);

    expect((await fx.api('GET', '/sso/scim-token', { session: owner })).body.data).toEqual({
      configured: true,
      prefix: second.slice(0, 12),
      created_at: expect.any(String),
    });
    expect((await fx.api('DELETE', '/sso/scim-token', { session: owner })).status).toBe(200);
    expect((await fx.api('GET', '/sso/scim-token', { session: owner })).body.data).toEqual({ configured: false, prefix: null, created_at: null });
    const revoked = await scimClient(fx.stack.urls.app, second)('GET', '/Users');
    expectScimError(revoked, 401);
    expect(revoked.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expectDashboardError(await fx.api('DELETE', '/sso/scim-token', { session: owner }), 404, 'not_found');
  });

  it.each([
    ['ACCOUNT_ADMIN', 201],
    ['TEAM_MANAGER', 403],
    ['MEMBER', 403],
  ] as const)('when a %s asks for a token, then the answer is %s (others 403 forbidden, nothing stored)', async (role, status) => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    await setPlan(fx.stack.orm, ws.organizationId, 'BUSINESS');
    const res = await issue(ws.as[role]);
    if (status === 201) expect(res.status).toBe(201);
    else {
      expectDashboardError(res, 403, 'forbidden');
      expectDashboardError(await fx.api('DELETE', '/sso/scim-token', { session: ws.as[role] }), 403, 'forbidden');
      expectDashboardError(await fx.api('GET', '/sso/scim-token', { session: ws.as[role] }), 403, 'forbidden');
      expect(await db()('scim_tokens').where({ organization_id: ws.organizationId }).first()).toBeUndefined();
    }
  });

  it('when no factor is sent and the session has not stepped up, then it is 403 step_up_required; a wrong password is 403 step_up_failed', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    await setPlan(fx.stack.orm, ws.organizationId, 'BUSINESS');
    expectDashboardError(await issue(ws.owner, {}), 403, 'step_up_required');
    expectDashboardError(await issue(ws.owner, { password: 'not the password' }), 403, 'step_up_failed');
    expect(await db()('scim_tokens').where({ organization_id: ws.organizationId }).first()).toBeUndefined();
  });

  it.each(['FREE', 'STARTER', 'PRO'] as const)('when the workspace is on %s, then a token is 403 plan_limit_reached', async (plan) => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    await setPlan(fx.stack.orm, ws.organizationId, plan);
    expectDashboardError(await issue(ws.owner), 403, 'plan_limit_reached', /BUSINESS/);
    expect(await db()('scim_tokens').where({ organization_id: ws.organizationId }).first()).toBeUndefined();
  });

  it('when the workspace leaves BUSINESS after the token was issued, then SCIM requests are 403 plan_limit_reached and change nothing', async () => {
    const { owner, scim } = await businessWorkspaceWithScim(fx.stack.urls.app, fx.stack.orm);
    await setPlan(fx.stack.orm, owner.organizationId, 'PRO');
    expectScimError(await scim('GET', '/Users'), 403, undefined, /plan_limit_reached/);
    expectScimError(await scim('POST', '/Users', { userName: 'late@example.test' }), 403, undefined, /plan_limit_reached/);
    expect(await db()('users').where({ email: 'late@example.test' }).first()).toBeUndefined();
  });
});

describe('the SCIM surface without a valid token', () => {
  it('when the token is missing, malformed, or unknown, then every endpoint is 401 with a SCIM error', async () => {
    await businessWorkspaceWithScim(fx.stack.urls.app, fx.stack.orm);
    for (const token of [undefined, 'nope', `klxscim_${'A'.repeat(43)}`]) {
      const scim = scimClient(fx.stack.urls.app, token);
      for (const path of ['/Users', '/Groups', '/ServiceProviderConfig', '/Schemas', '/ResourceTypes']) expectScimError(await scim('GET', path), 401);
      expectScimError(await scim('POST', '/Users', { userName: 'x@example.test' }), 401);
    }
  });
});

describe('SCIM discovery', () => {
  it('when a client reads ServiceProviderConfig, ResourceTypes and Schemas, then they say patch and filter yes (max 200), bulk, sort and etag no', async () => {
    const { scim } = await businessWorkspaceWithScim(fx.stack.urls.app, fx.stack.orm);
    const config = (await scim('GET', '/ServiceProviderConfig')).body;
    expect(config).toMatchObject({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
      patch: { supported: true },
      filter: { supported: true, maxResults: 200 },
      bulk: { supported: false },
      sort: { supported: false },
      etag: { supported: false },
      changePassword: { supported: false },
      authenticationSchemes: [expect.objectContaining({ type: 'oauthbearertoken' })],
    });
    const types = (await scim('GET', '/ResourceTypes')).body;
    expect(types.Resources.map((r: any) => [r.id, r.endpoint])).toEqual([
      ['User', '/Users'],
      ['Group', '/Groups'],
    ]);
    expect((await scim('GET', '/ResourceTypes/User')).body.schema).toBe('urn:ietf:params:scim:schemas:core:2.0:User');
    const schemas = (await scim('GET', '/Schemas')).body;
    expect(schemas.totalResults).toBe(2);
    expect((await scim('GET', '/Schemas/urn:ietf:params:scim:schemas:core:2.0:Group')).body.attributes.map((a: any) => a.name)).toEqual([
      'displayName',
      'members',
      'externalId',
    ]);
    expectScimError(await scim('GET', '/Bulk'), 404);
  });
});
