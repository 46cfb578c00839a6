import { knexOf } from '../../../src/db/knex';
import { signSlackState, slackStateKey, SLACK_STATE_TTL_MS } from '../../../src/integrations/slack/oauth-state';
import { SLACK_BOT_SCOPES } from '../../../src/integrations/slack/manifest';
import { createSealer } from '../../../src/services/sealing/seal';
import { setPlan } from '../../../src/services/workspace';
import { auditLog, catalogWorkspace, type CatalogWorkspace } from '../../support/catalog';
import { expectDashboardError, memberSession, signUpAndLogIn } from '../../support/dashboard';
import { TEST_SECRET } from '../../support/stack';
import { connectSlack, getManual, sessionIdOf, slackFixture } from './chat-fixture';

const fx = slackFixture();
const { api } = fx;
const db = () => knexOf(fx.stack.orm);
let ws: CatalogWorkspace;

beforeAll(async () => {
  ws = await catalogWorkspace(fx.stack, { plan: 'STARTER' });
});

const admin = () => ws.as.ACCOUNT_ADMIN;
const installation = (organizationId = ws.organizationId) => db()('slack_installations').where({ organization_id: organizationId }).first();
const install = (session = admin()) => getManual(`${fx.stack.urls.app}/api/integrations/slack/install`, session);
const callback = (query: Record<string, string>, session?: { cookie: string }) =>
  getManual(`${fx.stack.urls.app}/hooks/slack/oauth?${new URLSearchParams(query)}`, session);
const redirectUri = () => `${fx.stack.urls.app}/hooks/slack/oauth`;
const stateOf = (location: string) => new URL(location).searchParams.get('state')!;
const outcome = (location: string | null) => {
  const u = new URL(location!, fx.stack.urls.app);
  return `${u.pathname}?${u.searchParams}`;
};

describe('GET /api/integrations/slack/install', () => {
  it('when an admin starts the install, then 302 to Slack’s authorize page with the client id, the bot scopes, the redirect URI and a state', async () => {
    const res = await install();
    expect(res.status).toBe(302);
    const to = new URL(res.location!);
    expect(`${to.origin}${to.pathname}`).toBe(fx.fake.authorizeUrl);
    expect(to.searchParams.get('client_id')).toBe(fx.fake.clientId);
    expect(to.searchParams.get('scope')!.split(',')).toEqual([...SLACK_BOT_SCOPES]);
    expect(to.searchParams.get('scope')!.split(',')).toEqual(
      expect.arrayContaining(['chat:write', 'chat:write.public', 'commands', 'channels:read', 'groups:read', 'users:read', 'users:read.email', 'im:write']),
    );
    expect(to.searchParams.get('redirect_uri')).toBe(redirectUri());
    expect(to.searchParams.get('state')).toMatch(/^[\w-]+\.[\w-]+$/);
    expect(res.location).not.toContain(fx.fake.clientSecret);
    // A fresh state every time.
    expect(stateOf((await install()).location!)).not.toBe(to.searchParams.get('state'));
  });

  it('when a Team Manager or a Member starts it, then 403 forbidden', async () => {
    for (const session of [ws.as.TEAM_MANAGER, ws.as.MEMBER]) {
      const res = await api('GET', '/integrations/slack/install', { session });
      expectDashboardError(res, 403, 'forbidden', /integrations\.manage/);
    }
  });

  it('when the workspace is on FREE, then 403 plan_limit_reached naming STARTER', async () => {
    const owner = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    expectDashboardError(await api('GET', '/integrations/slack/install', { session: owner }), 403, 'plan_limit_reached', /STARTER/);
  });

  it('when not signed in, then 401', async () => {
    expect((await getManual(`${fx.stack.urls.app}/api/integrations/slack/install`)).status).toBe(401);
  });
});

describe('GET /hooks/slack/oauth', () => {
  it('when Slack sends the browser back with a code and the state, then the installation is saved with the token sealed, audited, and the browser goes to /integrations?slack=connected', async () => {
    const c = await catalogWorkspace(fx.stack, { plan: 'STARTER' });
    const back = await connectSlack(fx.stack, c.as.BILLING_OWNER);
    expect(back.pathname).toBe('/integrations');
    expect(Object.fromEntries(back.searchParams)).toEqual({ slack: 'connected' });

    const row = await installation(c.organizationId);
    expect(row).toMatchObject({
      slack_team_id: fx.fake.teamId,
      slack_team_name: fx.fake.teamName,
      bot_user_id: fx.fake.botUserId,
      installed_by: c.as.BILLING_OWNER.userId,
    });
    expect(row.bot_token_sealed).not.toContain(fx.fake.botToken);
    expect(row.bot_token_sealed).not.toContain(fx.fake.botToken.slice(5));
    expect(createSealer(TEST_SECRET).open(row.bot_token_sealed)).toBe(fx.fake.botToken);
    const access = fx.fake.callsOf('oauth.v2.access').at(-1)!;
    expect(access.args).toMatchObject({ client_id: fx.fake.clientId, client_secret: fx.fake.clientSecret, redirect_uri: redirectUri() });

    const [entry] = await auditLog(fx.stack, c.as.ACCOUNT_ADMIN, 'slack.connect');
    expect(entry).toMatchObject({ target: { type: 'slack_installation', id: fx.fake.teamId }, details: { slack_team_name: fx.fake.teamName } });
    expect(JSON.stringify(entry)).not.toContain(fx.fake.botToken);
    // Neither the code nor the token reached the logs.
    const logs = fx.stack.logs.lines.join('\n');
    expect(logs).not.toContain(fx.fake.botToken);
    expect(logs).not.toMatch(/code-[0-9a-f]{16}/);
    expect(logs).toContain('/hooks/slack/oauth');
  });

  it('when the same state comes back twice, then the second is refused with reason=state and nothing changes', async () => {
    const state = stateOf((await install()).location!);
    const first = await callback({ code: fx.fake.issueCode(redirectUri()), state }, admin());
    expect(outcome(first.location)).toBe('/integrations?slack=connected');
    const calls = fx.fake.callsOf('oauth.v2.access').length;
    await db()('slack_installations').where({ organization_id: ws.organizationId }).update({ slack_team_name: 'marker' });
    const again = await callback({ code: fx.fake.issueCode(redirectUri()), state }, admin());
    expect(outcome(again.location)).toBe('/integrations?slack=error&reason=state');
    expect(fx.fake.callsOf('oauth.v2.access')).toHaveLength(calls);
    expect((await installation()).slack_team_name).toBe('marker');
  });

  it('when the state is forged, altered, expired or missing, then reason=state and Slack is not asked', async () => {
    const calls = fx.fake.callsOf('oauth.v2.access').length;
    const who = { organizationId: ws.organizationId, userId: admin().userId, sessionId: await sessionIdOf(fx.stack, admin()) };
    const real = stateOf((await install()).location!);
    const states = [
      signSlackState(slackStateKey('another-secret-that-is-at-least-32-characters'), who),
      `${real.split('.')[0]}x.${real.split('.')[1]}`,
      `${real.split('.')[0]}.${'A'.repeat(43)}`,
      signSlackState(slackStateKey(TEST_SECRET), who, Date.now() - SLACK_STATE_TTL_MS - 1000),
      'nonsense',
    ];
    for (const state of states) {
      const res = await callback({ code: fx.fake.issueCode(redirectUri()), state }, admin());
      expect(res.status).toBe(302);
      expect(outcome(res.location)).toBe('/integrations?slack=error&reason=state');
    }
    expect(outcome((await callback({ code: fx.fake.issueCode(redirectUri()) }, admin())).location)).toBe('/integrations?slack=error&reason=state');
    expect(fx.fake.callsOf('oauth.v2.access')).toHaveLength(calls);
    // The good one still works: a refusal spends nothing.
    expect(outcome((await callback({ code: fx.fake.issueCode(redirectUri()), state: real }, admin())).location)).toBe('/integrations?slack=connected');
  });

  it('when the state comes back in another session (another admin, the same admin signed in elsewhere, or none), then reason=state', async () => {
    const c = await catalogWorkspace(fx.stack, { plan: 'PRO' });
    const state = stateOf((await install(c.as.ACCOUNT_ADMIN)).location!);
    const sameUserElsewhere = await memberSession(fx.stack.urls.app, fx.stack.orm, c.organizationId, 'ACCOUNT_ADMIN');
    const login = await api('POST', '/auth/login', { body: { email: c.as.ACCOUNT_ADMIN.email, password: c.as.ACCOUNT_ADMIN.password } });
    const secondSession = { cookie: login.headers.getSetCookie()[0].split(';')[0].split('=')[1] };
    for (const session of [c.as.BILLING_OWNER, sameUserElsewhere, secondSession, admin(), undefined]) {
      const res = await callback({ code: fx.fake.issueCode(redirectUri()), state }, session);
      expect(outcome(res.location)).toBe('/integrations?slack=error&reason=state');
    }
    expect(await installation(c.organizationId)).toBeUndefined();
  });

  it('when the person cancels in Slack, then reason=access_denied; when Slack refuses the code, then its error code is the reason', async () => {
    const c = await catalogWorkspace(fx.stack, { plan: 'STARTER' });
    const denied = await callback({ error: 'access_denied', state: stateOf((await install(c.as.ACCOUNT_ADMIN)).location!) }, c.as.ACCOUNT_ADMIN);
    expect(outcome(denied.location)).toBe('/integrations?slack=error&reason=access_denied');
    const badCode = await callback({ code: 'code-not-issued', state: stateOf((await install(c.as.ACCOUNT_ADMIN)).location!) }, c.as.ACCOUNT_ADMIN);
    expect(outcome(badCode.location)).toBe('/integrations?slack=error&reason=invalid_code');
    fx.fake.errors['oauth.v2.access'] = ['invalid_team_for_non_distributed_app'];
    const refused = await callback(
      { code: fx.fake.issueCode(redirectUri()), state: stateOf((await install(c.as.ACCOUNT_ADMIN)).location!) },
      c.as.ACCOUNT_ADMIN,
    );
    expect(outcome(refused.location)).toBe('/integrations?slack=error&reason=invalid_team_for_non_distributed_app');
    const odd = await callback({ error: '<script>', state: 'x' }, c.as.ACCOUNT_ADMIN);
    expect(outcome(odd.location)).toBe('/integrations?slack=error&reason=slack_error');
    expect(await installation(c.organizationId)).toBeUndefined();
  });

  it('when the workspace dropped to FREE between the install and the callback, then reason=plan_limit_reached', async () => {
    const c = await catalogWorkspace(fx.stack, { plan: 'STARTER' });
    const state = stateOf((await install(c.as.ACCOUNT_ADMIN)).location!);
    await setPlan(fx.stack.orm, c.organizationId, 'FREE');
    const res = await callback({ code: fx.fake.issueCode(redirectUri()), state }, c.as.ACCOUNT_ADMIN);
    expect(outcome(res.location)).toBe('/integrations?slack=error&reason=plan_limit_reached');
    expect(await installation(c.organizationId)).toBeUndefined();
  });
});

describe('GET /api/integrations and DELETE /api/integrations/slack', () => {
  it('when Slack is connected, then every member sees the Slack workspace, who connected it and when; Teams counts the services with a URL', async () => {
    const c = await catalogWorkspace(fx.stack, { plan: 'STARTER' });
    const before = await api('GET', '/integrations', { session: c.as.MEMBER });
    expect(before.status).toBe(200);
    expect(before.body.data).toEqual({
      integrations: [
        { provider: 'slack', configured: true, connected: false, team_id: null, team_name: null, installed_at: null, installed_by: null },
        expect.objectContaining({ provider: 'microsoft-teams', label: 'Microsoft Teams', configured: true, connected: false, services_with_webhook: 0 }),
        expect.objectContaining({ provider: 'discord', connected: false }),
        expect.objectContaining({ provider: 'mattermost', connected: false }),
      ],
    });
    await connectSlack(fx.stack, c.as.ACCOUNT_ADMIN);
    const service = (await api('POST', '/services', { session: c.as.ACCOUNT_ADMIN, body: { name: 'Payments API', team_id: c.team.id } })).body.data.id;
    await api('PUT', `/services/${service}/chat`, {
      session: c.as.ACCOUNT_ADMIN,
      body: { teams_webhook_url: 'https://example.webhook.office.com/workflows/abc?sig=s3cret' },
    });
    const after = await api('GET', '/integrations', { session: c.as.MEMBER });
    expect(after.body.data.integrations).toEqual([
      {
        provider: 'slack',
        configured: true,
        connected: true,
        team_id: fx.fake.teamId,
        team_name: fx.fake.teamName,
        installed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        installed_by: { id: c.as.ACCOUNT_ADMIN.userId, name: null, email: c.as.ACCOUNT_ADMIN.email },
      },
      expect.objectContaining({ provider: 'microsoft-teams', label: 'Microsoft Teams', configured: true, connected: true, services_with_webhook: 1 }),
      expect.objectContaining({ provider: 'discord', connected: false }),
      expect.objectContaining({ provider: 'mattermost', connected: false }),
    ]);
    expect(JSON.stringify(after.body)).not.toContain('s3cret');
    expect(JSON.stringify(after.body)).not.toContain(fx.fake.botToken);
  });

  it('when an admin disconnects, then 204, the installation is gone, every service’s Slack channel is cleared (Teams kept), audited; again: 204', async () => {
    const c = await catalogWorkspace(fx.stack, { plan: 'STARTER' });
    await connectSlack(fx.stack, c.as.ACCOUNT_ADMIN);
    const service = (await api('POST', '/services', { session: c.as.ACCOUNT_ADMIN, body: { name: 'Payments API', team_id: c.team.id } })).body.data.id;
    const put = await api('PUT', `/services/${service}/chat`, {
      session: c.as.ACCOUNT_ADMIN,
      body: { slack_channel_id: 'C0ALERTS01', teams_webhook_url: 'https://example.webhook.office.com/workflows/abc' },
    });
    expect(put.status).toBe(200);

    expectDashboardError(await api('DELETE', '/integrations/slack', { session: c.as.TEAM_MANAGER }), 403, 'forbidden');
    expect(await installation(c.organizationId)).toBeDefined();

    const res = await api('DELETE', '/integrations/slack', { session: c.as.ACCOUNT_ADMIN });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect(await installation(c.organizationId)).toBeUndefined();
    expect((await api('GET', `/services/${service}/chat`, { session: c.as.ACCOUNT_ADMIN })).body.data).toMatchObject({
      slack_channel_id: null,
      slack_channel_name: null,
      teams_webhook_url: 'https://example.webhook.office.com/workflows/abc',
    });
    expect((await auditLog(fx.stack, c.as.ACCOUNT_ADMIN, 'slack.disconnect'))[0]).toMatchObject({ details: { slack_team_id: fx.fake.teamId } });
    expect((await api('DELETE', '/integrations/slack', { session: c.as.ACCOUNT_ADMIN })).status).toBe(204);
    expect(await auditLog(fx.stack, c.as.ACCOUNT_ADMIN, 'slack.disconnect')).toHaveLength(1);
    expect((await api('GET', '/integrations', { session: c.as.MEMBER })).body.data.integrations[0].connected).toBe(false);
  });
});

describe('GET /api/integrations/slack/channels', () => {
  it('when connected, then every page of conversations.list is followed and the channels are answered by name', async () => {
    const c = await catalogWorkspace(fx.stack, { plan: 'STARTER' });
    expectDashboardError(await api('GET', '/integrations/slack/channels', { session: c.as.MEMBER }), 409, 'slack_not_connected');
    await connectSlack(fx.stack, c.as.ACCOUNT_ADMIN);
    fx.fake.channels.push(
      { id: 'C0ARCHIVE4', name: 'old', is_archived: true },
      { id: 'C0INCIDNT5', name: 'incidents' },
      { id: 'G0PRIVATE6', name: 'leads', is_private: true },
    );
    const before = fx.fake.callsOf('conversations.list').length;
    const res = await api('GET', '/integrations/slack/channels', { session: c.as.MEMBER });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      channels: [
        { id: 'C0ALERTS01', name: 'alerts', is_private: false },
        { id: 'C0INCIDNT5', name: 'incidents', is_private: false },
        { id: 'G0PRIVATE6', name: 'leads', is_private: true },
        { id: 'C0OPS00002', name: 'ops', is_private: false },
        { id: 'C0SECRET03', name: 'secret-ops', is_private: true },
      ],
    });
    const calls = fx.fake.callsOf('conversations.list').slice(before);
    expect(calls).toHaveLength(3); // the fake answers two at a time
    expect(calls[0].args).toMatchObject({ types: 'public_channel,private_channel', exclude_archived: 'true' });
    expect(calls[1].args.cursor).toBe('2');
    expect(calls.every((call) => call.token === fx.fake.botToken)).toBe(true);
    fx.fake.channels.splice(3);
  });

  it('when Slack is down, then 503 slack_unavailable with no token in the answer', async () => {
    const c = await catalogWorkspace(fx.stack, { plan: 'STARTER' });
    await connectSlack(fx.stack, c.as.ACCOUNT_ADMIN);
    fx.fake.down = 503;
    try {
      const res = await api('GET', '/integrations/slack/channels', { session: c.as.MEMBER });
      expectDashboardError(res, 503, 'slack_unavailable');
      expect(JSON.stringify(res.body)).not.toContain(fx.fake.botToken);
    } finally {
      fx.fake.down = undefined;
    }
    fx.fake.errors['conversations.list'] = ['ratelimited_forever'];
    expectDashboardError(await api('GET', '/integrations/slack/channels', { session: c.as.MEMBER }), 503, 'slack_unavailable', /ratelimited_forever/);
  });
});
