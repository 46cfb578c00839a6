import { knexOf } from '../../../src/db/knex';
import { startDiscordWebhook, type DiscordPost, type DiscordWebhookFake } from '../../../src/integrations/discord/testing/wire-fake';
import { dashboard, expectDashboardError, memberSession } from '../../support/dashboard';
import { pagingService, responder, statusOf, timelineOf, trigger } from '../../support/paging';
import { startTestStack, type TestStack } from '../../support/stack';
import { waitFor } from '../../support/wait';
import { seedWorkspace } from '../../support/workspace';

let stack: TestStack;
let discord: DiscordWebhookFake;
beforeAll(async () => {
  discord = await startDiscordWebhook();
  // The fake listens on 127.0.0.1: DISCORD_API_URL points every webhook URL at it.
  stack = await startTestStack({ env: { ALLOW_PRIVATE_TARGETS: 'true', DISCORD_API_URL: discord.apiUrl } });
});
afterAll(async () => {
  await stack?.stop();
  await discord?.close();
});
afterEach(() => discord.set({ kind: 'ok' }));

const db = () => knexOf(stack.orm);
const WEBHOOK = (id: string) => `https://discord.com/api/webhooks/${id}/sEcReT-t0ken_abcdefghijklmnopqrstuvwxyz`;

/** A workspace paging one responder, whose service posts to Discord webhook `hookId`. */
async function discordWorkspace(hookId: string) {
  const ws = await seedWorkspace(stack.orm);
  const paged = await responder(stack.orm, ws.organizationId, 'email');
  const ingestUrl = await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: paged.id }] }] }, stack.urls.ingest);
  const session = await memberSession(stack.urls.app, stack.orm, ws.organizationId, 'ACCOUNT_ADMIN');
  const put = (settings: unknown) => dashboard(stack.urls.app, 'PUT', `/services/${ws.serviceId}/chat/discord`, { session, body: { settings } });
  const res = await put({ webhook_url: WEBHOOK(hookId) });
  if (res.status !== 200) throw new Error(`PUT discord: ${res.status} ${JSON.stringify(res.body)}`);
  return { ws, ingestUrl, put, answer: res.body.data };
}

const postsOf = (hookId: string, number: number) => discord.posts.filter((p) => p.webhookId === hookId && p.message.embeds[0].title.startsWith(`#${number} `));
const link = (p: DiscordPost, label: string) => new RegExp(`\\[${label}\\]\\(([^)]+)\\)`).exec(p.message.embeds[0].description)?.[1];
const numberOf = async (id: string): Promise<number> => (await db()('incidents').where({ id }).first('number')).number;
const rowsOf = (serviceId: string) => db()('feed_deliveries').where({ consumer: 'discord', target_id: serviceId }).orderBy('lane_seq');

describe('Discord', () => {
  it('when an incident opens, then an embed reaches the webhook (title #N, service, status, severity, paging, one-use links); a click on Acknowledge acknowledges once and a second embed follows', async () => {
    const { ws, ingestUrl, answer } = await discordWorkspace('111111111111');
    expect(answer).toEqual({ provider: 'discord', settings: { webhook_url: '…wxyz' } });
    const incidentId = await trigger(ingestUrl, 'Checkout is [down](https://evil.example)');
    const number = await numberOf(incidentId);
    const [opened] = await waitFor(async () => postsOf('111111111111', number).length >= 1 && postsOf('111111111111', number), 20_000, 'the embed');
    expect(opened.wait).toBe(true);
    expect(opened.token).toBe('sEcReT-t0ken_abcdefghijklmnopqrstuvwxyz');
    expect(opened.message.allowed_mentions).toEqual({ parse: [] });
    const [embed] = opened.message.embeds;
    expect(embed.title).toBe(`#${number} Checkout is [down](https://evil.example)`);
    expect(embed.url).toBe(`${stack.urls.app}/incidents/${incidentId}`);
    expect(embed.fields.map((f) => f.name)).toEqual(['Service', 'Status', 'Severity', 'Paging']);
    expect(embed.fields[1].value).toBe('TRIGGERED');
    expect(embed.description).toContain('**New incident**');
    const acknowledge = link(opened, 'Acknowledge')!;
    expect(acknowledge).toMatch(new RegExp(`^${stack.urls.app}/hooks/chat/action/[\\w-]+\\.[\\w-]+$`));
    expect(link(opened, 'Resolve')).toBeDefined();

    const acted = await fetch(acknowledge, { method: 'POST', redirect: 'manual' });
    expect(acted.status).toBe(200);
    expect(await statusOf(stack.orm, incidentId)).toBe('ACKNOWLEDGED');
    expect((await timelineOf(stack.orm, incidentId)).find((e) => e.to_status === 'ACKNOWLEDGED')).toMatchObject({ via: 'Discord link' });
    const posts = await waitFor(async () => postsOf('111111111111', number).length >= 2 && postsOf('111111111111', number), 20_000, 'the acknowledged embed');
    expect(posts[1].message.embeds[0].fields[1].value).toBe('ACKNOWLEDGED');
    expect(link(posts[1], 'Acknowledge')).toBeUndefined();
    expect(link(posts[1], 'Resolve')).toBeDefined();
    expect(discord.refused).toEqual([]);
    // The link acts once: its nonce is recorded until the token expires, and a replay after the
    // incident is back to TRIGGERED changes nothing.
    expect(await db()('chat_action_nonces').where({ incident_id: incidentId })).toHaveLength(1);
    await db()('incidents').where({ id: incidentId }).update({ status: 'TRIGGERED' });
    const replay = await fetch(acknowledge, { method: 'POST', redirect: 'manual' });
    expect(replay.status).toBe(409);
    expect(await replay.text()).toContain('already used');
    expect(await statusOf(stack.orm, incidentId)).toBe('TRIGGERED');
    expect(stack.logs.lines.some((l) => l.includes('sEcReT-t0ken'))).toBe(false);
    await waitFor(async () => (await rowsOf(ws.serviceId)).every((r) => r.delivered_at), 10_000, 'recorded delivered');
  });

  it('when Discord answers 429, then the embed is retried after its Retry-After and delivered; when the webhook is gone (404), the delivery is parked after one attempt', async () => {
    const { ws, ingestUrl } = await discordWorkspace('222222222222');
    discord.set({ kind: 'rateLimited', retryAfter: 90, times: 1 });
    const first = await trigger(ingestUrl, 'Queue backlog');
    const row = await waitFor(async () => (await rowsOf(ws.serviceId)).find((r) => r.attempts >= 1), 20_000, 'the first attempt');
    expect(row).toMatchObject({ last_status_code: 429, parked_at: null });
    // Not the schedule's 5 s: Discord's Retry-After (90 s), so the retry is not refused again.
    expect(new Date(row.next_attempt_at).getTime() - Date.now()).toBeGreaterThan(80_000);
    await db()('feed_deliveries').where({ id: row.id }).update({ next_attempt_at: new Date() });
    await waitFor(async () => postsOf('222222222222', await numberOf(first)).length === 1, 20_000, 'the retried embed');

    discord.set({ kind: 'unknown' });
    await trigger(ingestUrl, 'Another one');
    const parked = await waitFor(async () => (await rowsOf(ws.serviceId)).find((r) => r.parked_at), 20_000, 'the parked row');
    expect(parked).toMatchObject({ attempts: 1, last_status_code: 404, delivered_at: null });
  });

  it.each([
    ['not a Discord URL', 'https://example.com/api/webhooks/1/abc'],
    ['plain http', 'http://discord.com/api/webhooks/1/abc'],
    ['no token', 'https://discord.com/api/webhooks/1'],
    ['a private address', 'https://10.0.0.5/api/webhooks/1/abc'],
  ])('when settings.webhook_url is %s, then 400 naming it and nothing changes', async (_why, url) => {
    const { ws, put } = await discordWorkspace('333333333333');
    const before = await db()('service_chat_destinations').where({ service_id: ws.serviceId });
    expectDashboardError(await put({ webhook_url: url }), 400, 'invalid_request', /^settings\.webhook_url: /);
    expect(await db()('service_chat_destinations').where({ service_id: ws.serviceId })).toEqual(before);
  });

  it('is listed on the Integrations page from the registry', async () => {
    const { ws } = await discordWorkspace('444444444444');
    const session = await memberSession(stack.urls.app, stack.orm, ws.organizationId, 'MEMBER');
    const list = (await dashboard(stack.urls.app, 'GET', '/integrations', { session })).body.data.integrations;
    expect(list.find((i: { provider: string }) => i.provider === 'discord')).toMatchObject({
      provider: 'discord',
      label: 'Discord',
      configured: true,
      connected: true,
      services_with_webhook: 1,
    });
  });
});
