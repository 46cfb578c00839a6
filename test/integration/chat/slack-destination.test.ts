import { knexOf } from '../../../src/db/knex';
import { chatProviders, postedChatProviders } from '../../../src/integrations/wiring';
import { setPlan } from '../../../src/services/workspace';
import { auditLog, catalogWorkspace, type CatalogWorkspace } from '../../support/catalog';
import { expectDashboardError } from '../../support/dashboard';
import { connectSlack, slackFixture } from './chat-fixture';

// Slack's channel through the generic per-service route (docs/chat.md, "The generic routes"),
// checked in the connected Slack by the provider's resolveSettings (src/integrations/slack/chat.ts).
const fx = slackFixture();
const { api } = fx;
const db = () => knexOf(fx.stack.orm);
let ws: CatalogWorkspace;
let service: string;

beforeAll(async () => {
  ws = await catalogWorkspace(fx.stack, { plan: 'STARTER' });
  await connectSlack(fx.stack, ws.as.ACCOUNT_ADMIN);
  service = (await api('POST', '/services', { session: ws.as.ACCOUNT_ADMIN, body: { name: 'Payments API', team_id: ws.team.id } })).body.data.id;
});

const admin = () => ws.as.ACCOUNT_ADMIN;
const put = (body: unknown, session = admin(), id = service) => api('PUT', `/services/${id}/chat/slack`, { session, body });
const rows = (id = service) => db()('service_chat_destinations').where({ service_id: id }).orderBy('provider');
const chat = async (id = service) => (await api('GET', `/services/${id}/chat`, { session: admin() })).body.data;

describe('PUT /api/services/{id}/chat/slack', () => {
  it('when a channel of the connected Slack is set, then it is looked up, stored with its name, answered {provider, settings}, read by the route of before, audited', async () => {
    const res = await put({ settings: { channel_id: 'C0ALERTS01' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ provider: 'slack', settings: { channel_id: 'C0ALERTS01', channel_name: 'alerts' } });
    expect(fx.fake.callsOf('conversations.info').at(-1)!.args).toMatchObject({ channel: 'C0ALERTS01' });
    const [row] = await rows();
    expect(row).toMatchObject({
      provider: 'slack',
      organization_id: ws.organizationId,
      settings: { channel_id: 'C0ALERTS01', channel_name: 'alerts' },
      secrets_sealed: null,
    });
    const read = await chat();
    expect(read).toMatchObject({ slack_channel_id: 'C0ALERTS01', slack_channel_name: 'alerts' });
    expect(read.destinations).toEqual([{ provider: 'slack', settings: { channel_id: 'C0ALERTS01', channel_name: 'alerts' } }]);
    const [entry] = await auditLog(fx.stack, admin(), 'service.chat_update');
    expect(entry).toMatchObject({
      target: { type: 'service', id: service },
      details: { provider: 'slack', settings: ['channel_id', 'channel_name'], set: true },
    });
  });

  it.each([
    ['missing', {}],
    ['not a channel id', { channel_id: 'general' }],
    ['lower case', { channel_id: 'c0alerts01' }],
    ['not a string', { channel_id: 42 }],
    ['too long', { channel_id: `C${'A'.repeat(40)}` }],
  ])('when channel_id is %s, then 400 naming settings.channel_id, Slack is not asked and nothing changes', async (_why, settings) => {
    await put({ settings: { channel_id: 'C0ALERTS01' } });
    const before = await rows();
    const infoCalls = fx.fake.callsOf('conversations.info').length;
    expectDashboardError(await put({ settings }), 400, 'invalid_request', /^settings\.channel_id: /);
    expect(await rows()).toEqual(before);
    expect(fx.fake.callsOf('conversations.info')).toHaveLength(infoCalls);
  });

  it('when the channel is unknown to the connected Slack, then 400 naming settings.channel_id and nothing changes', async () => {
    await put({ settings: { channel_id: 'C0ALERTS01' } });
    const before = await rows();
    expectDashboardError(await put({ settings: { channel_id: 'C0NOSUCH99' } }), 400, 'invalid_request', /^settings\.channel_id: no channel C0NOSUCH99/);
    expect(await rows()).toEqual(before);
  });

  it('when a field Slack does not take is sent, then 400 and nothing changes', async () => {
    const before = await rows();
    expectDashboardError(await put({ settings: { channel_id: 'C0OPS00002', channel_name: 'renamed' } }), 400, 'invalid_request', /^settings/);
    expect(await rows()).toEqual(before);
  });

  it('when Slack cannot confirm the channel, then 503 slack_unavailable and nothing changes', async () => {
    await put({ settings: { channel_id: 'C0ALERTS01' } });
    const before = await rows();
    fx.fake.down = 503;
    try {
      expectDashboardError(await put({ settings: { channel_id: 'C0OPS00002' } }), 503, 'slack_unavailable');
    } finally {
      fx.fake.down = undefined;
    }
    expect(await rows()).toEqual(before);
  });

  it('when the workspace has not connected Slack, then 409 slack_not_connected and nothing is stored', async () => {
    const c = await catalogWorkspace(fx.stack, { plan: 'STARTER' });
    const s = (await api('POST', '/services', { session: c.as.ACCOUNT_ADMIN, body: { name: 'Web', team_id: c.team.id } })).body.data.id;
    expectDashboardError(await put({ settings: { channel_id: 'C0ALERTS01' } }, c.as.ACCOUNT_ADMIN, s), 409, 'slack_not_connected');
    expect(await rows(s)).toEqual([]);
  });

  it('when the plan has no chat, then 403 plan_limit_reached before Slack is asked', async () => {
    const c = await catalogWorkspace(fx.stack, { plan: 'STARTER' });
    await connectSlack(fx.stack, c.as.ACCOUNT_ADMIN);
    const s = (await api('POST', '/services', { session: c.as.ACCOUNT_ADMIN, body: { name: 'Web', team_id: c.team.id } })).body.data.id;
    await setPlan(fx.stack.orm, c.organizationId, 'FREE');
    const infoCalls = fx.fake.callsOf('conversations.info').length;
    expectDashboardError(await put({ settings: { channel_id: 'C0ALERTS01' } }, c.as.ACCOUNT_ADMIN, s), 403, 'plan_limit_reached');
    expect(fx.fake.callsOf('conversations.info')).toHaveLength(infoCalls);
    expect(await rows(s)).toEqual([]);
  });

  it('who may: a Member is 403 and nothing changes', async () => {
    await put({ settings: { channel_id: 'C0ALERTS01' } });
    const before = await rows();
    expectDashboardError(await put({ settings: { channel_id: 'C0OPS00002' } }, ws.as.MEMBER), 403, 'forbidden');
    expect(await rows()).toEqual(before);
  });
});

describe('DELETE /api/services/{id}/chat/slack', () => {
  it('removes the channel (the route of before reads null), audited; again is still 204', async () => {
    await put({ settings: { channel_id: 'C0ALERTS01' } });
    expect((await api('DELETE', `/services/${service}/chat/slack`, { session: admin() })).status).toBe(204);
    expect(await rows()).toEqual([]);
    expect(await chat()).toMatchObject({ destinations: [], slack_channel_id: null, slack_channel_name: null });
    const [entry] = await auditLog(fx.stack, admin(), 'service.chat_update');
    expect(entry).toMatchObject({ details: { provider: 'slack', set: false } });
    expect((await api('DELETE', `/services/${service}/chat/slack`, { session: admin() })).status).toBe(204);
  });
});

describe('the registry', () => {
  it('declares Slack a chat provider, but the one chat consumer leaves it to Slack’s own deliverer', () => {
    expect(chatProviders().map((p) => p.key)).toContain('slack');
    expect(postedChatProviders().map((p) => p.key)).not.toContain('slack');
    expect(postedChatProviders().map((p) => p.key)).toEqual(expect.arrayContaining(['microsoft-teams', 'discord', 'mattermost']));
  });
});
