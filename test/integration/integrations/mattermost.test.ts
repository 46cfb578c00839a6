import { knexOf } from '../../../src/db/knex';
import { signIncidentAction } from '../../../src/services/response/action-tokens';
import { startMattermost, type MattermostFake, type MattermostPost } from '../../../src/integrations/mattermost/testing/wire-fake';
import { dashboard, expectDashboardError, memberSession } from '../../support/dashboard';
import { pagingService, responder, statusOf, timelineOf, trigger } from '../../support/paging';
import { startTestStack, TEST_SECRET, type TestStack } from '../../support/stack';
import { waitFor } from '../../support/wait';
import { seedWorkspace } from '../../support/workspace';

let stack: TestStack;
let mm: MattermostFake;
beforeAll(async () => {
  mm = await startMattermost();
  // The fake Mattermost listens on 127.0.0.1.
  stack = await startTestStack({ env: { ALLOW_PRIVATE_TARGETS: 'true' } });
});
afterAll(async () => {
  await stack?.stop();
  await mm?.close();
});
afterEach(() => mm.fail(null));

const db = () => knexOf(stack.orm);

/** A workspace paging one responder, whose service posts to a new Mattermost incoming webhook. */
async function mattermostWorkspace() {
  const ws = await seedWorkspace(stack.orm);
  const paged = await responder(stack.orm, ws.organizationId, 'email');
  const ingestUrl = await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: paged.id }] }] }, stack.urls.ingest);
  const session = await memberSession(stack.urls.app, stack.orm, ws.organizationId, 'ACCOUNT_ADMIN');
  const hookUrl = mm.hookUrl();
  const put = (settings: unknown) => dashboard(stack.urls.app, 'PUT', `/services/${ws.serviceId}/chat/mattermost`, { session, body: { settings } });
  const res = await put({ webhook_url: hookUrl });
  if (res.status !== 200) throw new Error(`PUT mattermost: ${res.status} ${JSON.stringify(res.body)}`);
  return { ws, ingestUrl, put, key: hookUrl.split('/').at(-1)! };
}

const numberOf = async (id: string): Promise<number> => (await db()('incidents').where({ id }).first('number')).number;
const postsOf = (key: string, number: number) => mm.posts.filter((p) => p.key === key && p.message.attachments[0].title.startsWith(`#${number} `));
const buttons = (p: MattermostPost) => p.attachments[0].actions.map((a) => a.name);

describe('Mattermost', () => {
  it('when an incident opens, then a post with Acknowledge and Resolve buttons arrives; a click acknowledges and updates the post (Acknowledge gone); the same button again changes nothing', async () => {
    const { ingestUrl, key } = await mattermostWorkspace();
    const incidentId = await trigger(ingestUrl, 'Checkout is down @channel');
    const number = await numberOf(incidentId);
    const [post] = await waitFor(async () => postsOf(key, number).length >= 1 && postsOf(key, number), 20_000, 'the post');
    const [attachment] = post.message.attachments;
    expect(attachment.title).toBe(`#${number} Checkout is down @channel`);
    expect(attachment.title_link).toBe(`${stack.urls.app}/incidents/${incidentId}`);
    expect(attachment.fields.map((f) => [f.title, f.value])).toContainEqual(['Status', 'TRIGGERED']);
    expect(buttons(post)).toEqual(['Acknowledge', 'Resolve']);
    expect(attachment.actions[0].integration.url).toBe(`${stack.urls.app}/hooks/mattermost/action`);
    expect(attachment.actions[0].integration.context.token).toMatch(/^[\w-]+\.[\w-]+$/);
    const acknowledgeContext = attachment.actions[0].integration.context;

    const clicked = await mm.click(post, 'Acknowledge');
    expect(clicked.status).toBe(200);
    expect(clicked.body.ephemeral_text).toBeUndefined();
    expect(await statusOf(stack.orm, incidentId)).toBe('ACKNOWLEDGED');
    expect((await timelineOf(stack.orm, incidentId)).find((e) => e.to_status === 'ACKNOWLEDGED')).toMatchObject({ via: 'Mattermost button' });
    expect(buttons(post)).toEqual(['Resolve']);
    expect(post.attachments[0].fields).toContainEqual({ short: true, title: 'Status', value: 'ACKNOWLEDGED' });
    // The acknowledgement is posted too, from the feed.
    await waitFor(async () => postsOf(key, number).length >= 2, 20_000, 'the acknowledged post');

    // The first button's token, replayed after the incident is back to TRIGGERED: used, nothing changes.
    await db()('incidents').where({ id: incidentId }).update({ status: 'TRIGGERED' });
    const replay = await fetch(`${stack.urls.app}/hooks/mattermost/action`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: 'u2', user_name: 'eve', channel_id: 'c1', post_id: post.id, context: acknowledgeContext }),
    });
    expect(replay.status).toBe(200);
    const answer = await replay.json();
    expect(answer.update).toBeUndefined();
    expect(answer.ephemeral_text).toContain('already used');
    expect(await statusOf(stack.orm, incidentId)).toBe('TRIGGERED');

    // The updated post's Resolve button works once too.
    await db()('incidents').where({ id: incidentId }).update({ status: 'ACKNOWLEDGED' });
    expect((await mm.click(post, 'Resolve')).body.update?.props?.attachments?.[0].actions).toEqual([]);
    expect(await statusOf(stack.orm, incidentId)).toBe('RESOLVED');
  });

  it('when a token is forged or expired, then the click is answered with ephemeral text and nothing changes', async () => {
    const { ingestUrl, key } = await mattermostWorkspace();
    const incidentId = await trigger(ingestUrl, 'Forgery target');
    await waitFor(async () => postsOf(key, await numberOf(incidentId)).length >= 1, 20_000, 'the post');
    const now = Math.floor(Date.now() / 1000);
    const forged = signIncidentAction('another-secret-that-is-at-least-32-characters', {
      incidentId,
      action: 'acknowledge',
      expiresAt: now + 3600,
      nonce: 'n1',
    });
    const expired = signIncidentAction(TEST_SECRET, { incidentId, action: 'acknowledge', expiresAt: now - 1, nonce: 'n2' });
    for (const token of [forged, expired, 'not-a-token']) {
      const res = await fetch(`${stack.urls.app}/hooks/mattermost/action`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user_id: 'u1', context: { token } }),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ephemeral_text: 'This button is not valid or has expired.' });
    }
    const bad = await fetch(`${stack.urls.app}/hooks/mattermost/action`, { method: 'POST', body: JSON.stringify({ context: {} }) });
    expect(bad.status).toBe(400);
    expect(await statusOf(stack.orm, incidentId)).toBe('TRIGGERED');
  });

  it('when the incoming webhook is gone (404), then the delivery is parked after one attempt', async () => {
    const { ws, ingestUrl } = await mattermostWorkspace();
    mm.fail(404);
    await trigger(ingestUrl, 'Nowhere to post');
    const parked = await waitFor(
      async () => (await db()('feed_deliveries').where({ consumer: 'mattermost', target_id: ws.serviceId })).find((r) => r.parked_at),
      20_000,
      'the parked row',
    );
    expect(parked).toMatchObject({ attempts: 1, last_status_code: 404, delivered_at: null });
  });

  it.each([
    ['not an incoming webhook', 'https://mattermost.example.com/api/v4/posts'],
    ['a cloud metadata address', 'http://169.254.169.254/hooks/abcdefghijklmnopqrstuvwxyz'],
    ['not a URL', 'mattermost please'],
  ])('when settings.webhook_url is %s, then 400 naming it and nothing changes', async (_why, url) => {
    const { ws, put } = await mattermostWorkspace();
    const before = await db()('service_chat_destinations').where({ service_id: ws.serviceId });
    expectDashboardError(await put({ webhook_url: url }), 400, 'invalid_request', /^settings\.webhook_url: /);
    expect(await db()('service_chat_destinations').where({ service_id: ws.serviceId })).toEqual(before);
  });
});
