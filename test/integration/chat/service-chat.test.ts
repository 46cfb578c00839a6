import { knexOf } from '../../../src/db/knex';
import { createSealer } from '../../../src/services/sealing/seal';
import { setPlan } from '../../../src/services/workspace';
import { auditLog, catalogWorkspace, type CatalogWorkspace } from '../../support/catalog';
import { expectDashboardError } from '../../support/dashboard';
import { TEST_SECRET } from '../../support/stack';
import { connectSlack, slackFixture } from './chat-fixture';

const fx = slackFixture();
const { api } = fx;
const db = () => knexOf(fx.stack.orm);
let ws: CatalogWorkspace;
let service: string;
let otherService: string;

const TEAMS_URL = 'https://prod-01.westeurope.logic.azure.com/workflows/abc/triggers/manual/paths/invoke?api-version=2016-06-01&sig=s3cr3t-signature';

beforeAll(async () => {
  ws = await catalogWorkspace(fx.stack, { plan: 'STARTER' });
  await connectSlack(fx.stack, ws.as.ACCOUNT_ADMIN);
  service = (await api('POST', '/services', { session: ws.as.ACCOUNT_ADMIN, body: { name: 'Payments API', team_id: ws.team.id } })).body.data.id;
  otherService = (await api('POST', '/services', { session: ws.as.ACCOUNT_ADMIN, body: { name: 'Search API', team_id: ws.otherTeam.id } })).body.data.id;
});

const admin = () => ws.as.ACCOUNT_ADMIN;
const put = (body: unknown, session = admin(), id = service) => api('PUT', `/services/${id}/chat`, { session, body });
/** A service's destination rows, by provider; undefined when it has none. */
const row = async (id = service) => {
  const rows = await db()('service_chat_destinations').where({ service_id: id }).orderBy('provider');
  return rows.length > 0 ? rows : undefined;
};
const chat = async (id = service, session = admin()) => (await api('GET', `/services/${id}/chat`, { session })).body.data;

describe('PUT /api/services/{id}/chat', () => {
  it('when a channel of the connected Slack and a Teams URL are set, then both are stored (the channel’s name looked up, the URL sealed) and audited without the URL', async () => {
    const res = await put({ slack_channel_id: 'C0ALERTS01', teams_webhook_url: TEAMS_URL });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ slack_channel_id: 'C0ALERTS01', slack_channel_name: 'alerts', teams_webhook_url: TEAMS_URL });
    expect(fx.fake.callsOf('conversations.info').at(-1)!.args).toMatchObject({ channel: 'C0ALERTS01' });
    const [teams, slack] = (await row())!;
    expect(slack).toMatchObject({
      provider: 'slack',
      organization_id: ws.organizationId,
      settings: { channel_id: 'C0ALERTS01', channel_name: 'alerts' },
      secrets_sealed: null,
    });
    expect(teams).toMatchObject({ provider: 'microsoft-teams', organization_id: ws.organizationId, settings: {} });
    expect(JSON.stringify(teams)).not.toContain('s3cr3t');
    expect(createSealer(TEST_SECRET).open(teams.secrets_sealed.webhook_url)).toBe(TEAMS_URL);
    expect(await chat()).toEqual(res.body.data);
    const [entry] = await auditLog(fx.stack, admin(), 'service.chat_update');
    expect(entry).toMatchObject({
      target: { type: 'service', id: service },
      details: { slack_channel_id: 'C0ALERTS01', slack_channel_name: 'alerts', teams_webhook_url: 'set' },
    });
    expect(JSON.stringify(entry)).not.toContain('s3cr3t');
  });

  it('when a field is left out it is kept; null clears it', async () => {
    await put({ slack_channel_id: 'C0ALERTS01', teams_webhook_url: TEAMS_URL });
    expect((await put({ slack_channel_id: 'C0SECRET03' })).body.data).toMatchObject({
      slack_channel_id: 'C0SECRET03',
      slack_channel_name: 'secret-ops',
      teams_webhook_url: TEAMS_URL,
    });
    expect((await put({ teams_webhook_url: null })).body.data).toMatchObject({
      slack_channel_id: 'C0SECRET03',
      slack_channel_name: 'secret-ops',
      teams_webhook_url: null,
    });
    expect((await put({ slack_channel_id: null })).body.data).toMatchObject({ slack_channel_id: null, slack_channel_name: null, teams_webhook_url: null });
    expect((await put({})).status).toBe(200);
  });

  it('when the channel is unknown to Slack, then 400 naming slack_channel_id and nothing changes', async () => {
    await put({ slack_channel_id: 'C0ALERTS01', teams_webhook_url: TEAMS_URL });
    const before = await row();
    const res = await put({ slack_channel_id: 'C0NOSUCH99', teams_webhook_url: 'https://example.webhook.office.com/other' });
    expectDashboardError(res, 400, 'invalid_request', /^slack_channel_id: /);
    expect(await row()).toEqual(before);
  });

  it.each([
    ['not a channel id', 'general'],
    ['lower case', 'c0alerts01'],
    ['too long', `C${'A'.repeat(40)}`],
  ])('when slack_channel_id is %s, then 400 naming it', async (_why, id) => {
    expectDashboardError(await put({ slack_channel_id: id }), 400, 'invalid_request', /slack_channel_id/);
  });

  it.each([
    ['a private address', 'https://10.0.0.5/hook'],
    ['localhost', 'https://localhost:8080/hook'],
    ['the cloud metadata address', 'https://169.254.169.254/latest/meta-data'],
    ['plain http', 'http://example.webhook.office.com/hook'],
    ['not a URL', 'teams please'],
    ['a user and password', 'https://user:pw@example.webhook.office.com/hook'],
    ['over 2048 characters', `https://example.webhook.office.com/${'a'.repeat(2048)}`],
  ])('when the Teams URL is %s, then 400 naming teams_webhook_url and nothing changes (the channel given with it neither)', async (_why, url) => {
    await put({ slack_channel_id: 'C0ALERTS01', teams_webhook_url: TEAMS_URL });
    const before = await row();
    const infoCalls = fx.fake.callsOf('conversations.info').length;
    const res = await put({ slack_channel_id: 'C0OPS00002', teams_webhook_url: url });
    expectDashboardError(res, 400, 'invalid_request', /^teams_webhook_url: /);
    expect(await row()).toEqual(before);
    expect(fx.fake.callsOf('conversations.info')).toHaveLength(infoCalls);
  });

  it('when an unknown field is sent, then 400 and nothing changes', async () => {
    const before = await row();
    expectDashboardError(await put({ slack_channel: 'C0OPS00002' }), 400, 'invalid_request');
    expect(await row()).toEqual(before);
  });

  it('when Slack cannot confirm the channel, then 503 slack_unavailable and nothing changes', async () => {
    const before = await row();
    fx.fake.down = 503;
    try {
      expectDashboardError(await put({ slack_channel_id: 'C0OPS00002' }), 503, 'slack_unavailable');
    } finally {
      fx.fake.down = undefined;
    }
    expect(await row()).toEqual(before);
  });

  it('when the workspace has not connected Slack, then a channel is 409 slack_not_connected; a Teams URL alone is fine', async () => {
    const c = await catalogWorkspace(fx.stack, { plan: 'PRO' });
    const s = (await api('POST', '/services', { session: c.as.ACCOUNT_ADMIN, body: { name: 'Web', team_id: c.team.id } })).body.data.id;
    expectDashboardError(await put({ slack_channel_id: 'C0ALERTS01' }, c.as.ACCOUNT_ADMIN, s), 409, 'slack_not_connected');
    expect(await row(s)).toBeUndefined();
    expect((await put({ teams_webhook_url: TEAMS_URL }, c.as.ACCOUNT_ADMIN, s)).status).toBe(200);
  });

  it('when the workspace is on FREE, then setting either is 403 plan_limit_reached naming STARTER; clearing is allowed', async () => {
    const c = await catalogWorkspace(fx.stack, { plan: 'STARTER' });
    const s = (await api('POST', '/services', { session: c.as.ACCOUNT_ADMIN, body: { name: 'Web', team_id: c.team.id } })).body.data.id;
    expect((await put({ teams_webhook_url: TEAMS_URL }, c.as.ACCOUNT_ADMIN, s)).status).toBe(200);
    await setPlan(fx.stack.orm, c.organizationId, 'FREE');
    const before = await row(s);
    expectDashboardError(await put({ teams_webhook_url: 'https://example.webhook.office.com/x' }, c.as.ACCOUNT_ADMIN, s), 403, 'plan_limit_reached', /STARTER/);
    expectDashboardError(await put({ slack_channel_id: 'C0ALERTS01' }, c.as.ACCOUNT_ADMIN, s), 403, 'plan_limit_reached', /STARTER/);
    expect(await row(s)).toEqual(before);
    expect((await put({ teams_webhook_url: null }, c.as.ACCOUNT_ADMIN, s)).body.data.teams_webhook_url).toBeNull();
  });

  it('who may: the owning team’s manager yes; another team’s manager and a Member 403, nothing changed; a bad id 400, another workspace’s 404', async () => {
    await put({ slack_channel_id: 'C0ALERTS01', teams_webhook_url: TEAMS_URL });
    expect((await put({ slack_channel_id: 'C0OPS00002' }, ws.as.TEAM_MANAGER)).status).toBe(200);
    const before = await row();
    expectDashboardError(await put({ slack_channel_id: null }, ws.as.OTHER_TEAM_MANAGER), 403, 'forbidden');
    expectDashboardError(await put({ slack_channel_id: null }, ws.as.MEMBER), 403, 'forbidden');
    expect(await row()).toEqual(before);
    expect((await put({ slack_channel_id: null }, ws.as.TEAM_MANAGER, otherService)).status).toBe(403);
    expect((await api('PUT', '/services/nope/chat', { session: admin(), body: {} })).status).toBe(400);
    const other = await catalogWorkspace(fx.stack, { plan: 'STARTER' });
    expectDashboardError(await put({ slack_channel_id: null }, other.as.ACCOUNT_ADMIN), 404, 'not_found');
  });
});

describe('GET /api/services/{id}/chat', () => {
  it('when read by someone who may not change the service, then the Teams URL is masked to its origin', async () => {
    await put({ slack_channel_id: 'C0ALERTS01', teams_webhook_url: TEAMS_URL });
    expect(await chat(service, ws.as.TEAM_MANAGER)).toMatchObject({ teams_webhook_url: TEAMS_URL });
    for (const session of [ws.as.MEMBER, ws.as.OTHER_TEAM_MANAGER]) {
      const res = await api('GET', `/services/${service}/chat`, { session });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        slack_channel_id: 'C0ALERTS01',
        slack_channel_name: 'alerts',
        teams_webhook_url: 'https://prod-01.westeurope.logic.azure.com/…',
      });
      expect(JSON.stringify(res.body)).not.toContain('s3cr3t');
    }
  });

  it('when a service never had destinations, then all null', async () => {
    expect(await chat(otherService)).toMatchObject({ slack_channel_id: null, slack_channel_name: null, teams_webhook_url: null });
  });
});

describe('deleting a service', () => {
  it('when a service is deleted, then its chat row goes with it', async () => {
    const s = (await api('POST', '/services', { session: admin(), body: { name: 'Temporary', team_id: ws.team.id } })).body.data.id;
    await put({ slack_channel_id: 'C0ALERTS01', teams_webhook_url: TEAMS_URL }, admin(), s);
    expect(await row(s)).toBeDefined();
    expect((await api('DELETE', `/services/${s}`, { session: admin() })).status).toBe(200);
    expect(await row(s)).toBeUndefined();
  });
});
