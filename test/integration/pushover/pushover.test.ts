import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../../src/config';
import { channelProviders, describeChannels } from '../../../src/integrations/wiring';
import { knexOf } from '../../../src/db/knex';
import { startPushoverFake, type PushoverFake } from '../../../src/integrations/pushover/testing/wire-fake';
import { dashboard, memberSession } from '../../support/dashboard';
import { pagingService, statusOf, timelineOf, trigger } from '../../support/paging';
import { startTestStack, type TestStack } from '../../support/stack';
import { waitFor } from '../../support/wait';
import { seedWorkspace, type SeededWorkspace } from '../../support/workspace';

// docs/integrations/pushover.md: pages through the Pushover wire fake, acknowledged by its receipt callback.
/** A Pushover application token: 30 letters and digits. */
const TOKEN = 'azGDORePK8gMaC0QOYAMyEEuzJnyUi';
let fake: PushoverFake;
let stack: TestStack;
let ws: SeededWorkspace;

beforeAll(async () => {
  fake = await startPushoverFake({ appToken: TOKEN });
  stack = await startTestStack({ env: { PUSHOVER_APP_TOKEN: TOKEN, PUSHOVER_API_URL: fake.url } });
  ws = await seedWorkspace(stack.orm);
});
afterAll(async () => {
  await stack?.stop();
  await fake?.close();
});

const api = (method: string, p: string, opts: Parameters<typeof dashboard>[3] = {}) => dashboard(stack.urls.app, method, p, opts);
const db = () => knexOf(stack.orm);

/** A member whose only contact method is Pushover, paged at once. */
async function pushoverResponder(user = fake.addUser()) {
  const me = await memberSession(stack.urls.app, stack.orm, ws.organizationId, 'MEMBER');
  const added = await api('POST', '/contact-methods', { session: me, body: { type: 'pushover', address: user, label: 'phone' } });
  expect(added.status).toBe(201);
  expect(added.body.data).toMatchObject({ type: 'pushover', address: user, verified_at: expect.any(String) });
  const rule = await api('POST', '/notification-rules', { session: me, body: { contact_method_id: added.body.data.id, delay_seconds: 0 } });
  expect(rule.status).toBe(201);
  return { ...me, user, contactId: added.body.data.id as string };
}

async function pageOn(userId: string, severity = 'critical'): Promise<string> {
  const ingestUrl = await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: userId }] }] }, stack.urls.ingest);
  if (severity === 'critical') return trigger(ingestUrl);
  const res = await fetch(ingestUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: `Disk filling ${randomUUID().slice(0, 6)}`, severity }),
  });
  expect(res.status).toBe(202);
  return ((await res.json()) as { incident_id: string }).incident_id;
}

describe('paging by Pushover', () => {
  it('when a critical incident pages a Pushover contact, then it goes out at emergency priority with a receipt callback, and the receipt acknowledges the incident as that person, once', async () => {
    const me = await pushoverResponder();
    const incidentId = await pageOn(me.userId);
    const message = await fake.waitFor((m) => m.fields.user === me.user);
    expect(message.fields).toMatchObject({
      token: TOKEN,
      priority: '2',
      retry: '60',
      expire: '3600',
      url: `${stack.urls.app}/incidents/${incidentId}`,
      callback: expect.stringMatching(new RegExp(`^${stack.urls.app}/hooks/pushover/receipt/[^/]+$`)),
    });
    expect(message.fields.title).toContain('Database down');
    expect(message.receipt).toEqual(expect.any(String));
    // The page is sent and remembers the receipt Pushover answered.
    const page = await waitFor(
      async () => (await db()('notifications').where({ incident_id: incidentId, channel: 'pushover' }).first()) ?? undefined,
      10_000,
      'the page row',
    );
    await waitFor(async () => (await db()('notifications').where({ id: page.id }).first()).status === 'sent' || undefined, 10_000, 'the page sent');
    expect((await db()('notifications').where({ id: page.id }).first()).provider_message_id).toBe(message.receipt);
    expect(await statusOf(stack.orm, incidentId)).toBe('TRIGGERED');

    const acked = await fake.acknowledge(message);
    expect(acked.status).toBe(200);
    expect(await statusOf(stack.orm, incidentId)).toBe('ACKNOWLEDGED');
    const entries = (await timelineOf(stack.orm, incidentId)).filter((e) => e.to_status === 'ACKNOWLEDGED');
    expect(entries).toEqual([expect.objectContaining({ actor_type: 'user', actor_id: me.userId, via: 'pushover' })]);

    // Pushover retries a callback it thinks failed; a replay changes nothing.
    const again = await fake.acknowledge(message);
    expect(again.status).toBe(200);
    expect((await timelineOf(stack.orm, incidentId)).filter((e) => e.to_status === 'ACKNOWLEDGED')).toHaveLength(1);
    expect((await timelineOf(stack.orm, incidentId)).map((e) => e.message).join('\n')).not.toContain(TOKEN);
  });

  it('when a receipt callback carries a forged or altered token, then it is refused with 403 and the incident stays triggered', async () => {
    const me = await pushoverResponder();
    const incidentId = await pageOn(me.userId);
    const message = await fake.waitFor((m) => m.fields.user === me.user);
    const callback = message.fields.callback;
    const token = callback.slice(callback.lastIndexOf('/') + 1);
    const altered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const forged of [altered, 'not-a-token', 'x'.repeat(2000)]) {
      const res = await fake.acknowledge({ ...message, fields: { ...message.fields, callback: `${stack.urls.app}/hooks/pushover/receipt/${forged}` } });
      expect(res.status).toBe(403);
    }
    expect(await statusOf(stack.orm, incidentId)).toBe('TRIGGERED');
    expect((await timelineOf(stack.orm, incidentId)).filter((e) => e.to_status === 'ACKNOWLEDGED')).toHaveLength(0);
  });

  it('when a non-critical incident pages, then it goes at high priority without a callback', async () => {
    const me = await pushoverResponder();
    await pageOn(me.userId, 'warning');
    const message = await fake.waitFor((m) => m.fields.user === me.user);
    expect(message.fields.priority).toBe('1');
    expect(message.fields.callback).toBeUndefined();
    expect(message.fields.retry).toBeUndefined();
    expect(message.receipt).toBeUndefined();
  });

  it('when Pushover does not know the user key, then the page fails naming the error, the contact method is disabled, and the token is never echoed', async () => {
    // A well-formed key Pushover has no user for (the person deleted their account).
    const me = await pushoverResponder('Q'.repeat(30));
    const incidentId = await pageOn(me.userId);
    const line = await waitFor(
      async () => (await timelineOf(stack.orm, incidentId)).find((e) => e.type === 'notification' && /failed/.test(e.message ?? ''))?.message,
      20_000,
      'the failed page on the timeline',
    );
    expect(line).toMatch(/pushover: refused: user identifier is not a valid user, group, or subscribed user key \(HTTP 400\)/);
    expect(line).not.toContain(TOKEN);
    expect((await db()('contact_methods').where({ id: me.contactId }).first()).disabled_at).not.toBeNull();
  });

  it('when Pushover answers 500, then the page is retried until it is taken', async () => {
    const user = fake.addUser();
    fake.failUser(user, 500);
    const me = await pushoverResponder(user);
    await pageOn(me.userId);
    await waitFor(async () => fake.messages.find((m) => m.fields.user === user && m.status === 500), 10_000, 'a refused attempt');
    fake.clearFailure(user);
    await fake.waitFor((m) => m.fields.user === user);
    expect(fake.accepted().filter((m) => m.fields.user === user)).toHaveLength(1);
  });
});

describe('pushover contact methods', () => {
  it('when the user key is not 30 letters and digits, then 400 names address, never repeats it, and nothing is stored', async () => {
    const me = await memberSession(stack.urls.app, stack.orm, ws.organizationId, 'MEMBER');
    const before = await db()('contact_methods').where({ type: 'pushover', user_id: me.userId }).count({ n: '*' });
    for (const bad of ['short', `${'a'.repeat(29)}!`, 'b'.repeat(31), 'ada@example.test']) {
      const res = await api('POST', '/contact-methods', { session: me, body: { type: 'pushover', address: bad } });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^address: must be a Pushover user key/);
      expect(JSON.stringify(res.body)).not.toContain(bad);
    }
    expect(await db()('contact_methods').where({ type: 'pushover', user_id: me.userId }).count({ n: '*' })).toEqual(before);
  });
});

describe('drilling Pushover', () => {
  it('when a person with a Pushover contact is drilled, then an emergency test message goes out and its receipt acknowledges the drill, not an incident', async () => {
    const admin = await memberSession(stack.urls.app, stack.orm, ws.organizationId, 'ACCOUNT_ADMIN');
    const me = await pushoverResponder();
    const incidents = (await db()('incidents').count({ n: '*' }))[0].n;
    const res = await api('POST', '/drills', { session: admin, body: { target: { type: 'user', id: me.userId }, channels: ['pushover'] } });
    expect(res.status).toBe(201);
    const drillId = res.body.data.id as string;
    const message = await fake.waitFor((m) => m.fields.user === me.user);
    expect(message.fields).toMatchObject({ priority: '2', title: expect.stringContaining('[TEST] Klaxon paging drill') });
    const delivered = await waitFor(
      async () => {
        const d = await api('GET', `/drills/${drillId}`, { session: admin });
        return d.body.data.results.find((r: { status: string }) => r.status === 'delivered');
      },
      20_000,
      'the drill result delivered',
    );
    expect(delivered).toMatchObject({ channel: 'pushover', acknowledged_at: null });
    expect((await fake.acknowledge(message)).status).toBe(200);
    const drill = await api('GET', `/drills/${drillId}`, { session: admin });
    expect(drill.body.data.results).toEqual([expect.objectContaining({ channel: 'pushover', status: 'delivered', acknowledged_at: expect.any(String) })]);
    expect((await db()('incidents').count({ n: '*' }))[0].n).toBe(incidents);
  });
});

describe('testing a Pushover contact method', () => {
  it('when a member tests their Pushover contact, then a normal-priority test message goes out with no callback', async () => {
    const me = await pushoverResponder();
    const res = await api('POST', `/contact-methods/${me.contactId}/test`, { session: me });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ delivered: true, provider: 'pushover', error: null });
    const message = await fake.waitFor((m) => m.fields.user === me.user);
    expect(message.fields).toMatchObject({ priority: '0', title: 'Klaxon test page' });
    expect(message.fields.callback).toBeUndefined();
  });
});

describe('the startup banner', () => {
  it('when PUSHOVER_APP_TOKEN is set or not, then Pushover says where pages go or what would enable it, never the token', () => {
    const banner = (env: Record<string, string>) => describeChannels(loadConfig(env).notify).find((line) => line.startsWith('Paging Pushover'));
    expect(banner({})).toBe('Paging Pushover  dev inbox (set PUSHOVER_APP_TOKEN to send for real; see `klaxon inbox list`)');
    const configured = banner({ PUSHOVER_APP_TOKEN: TOKEN, PUSHOVER_API_URL: 'http://127.0.0.1:9002/' });
    expect(configured).toBe('Paging Pushover  Pushover via http://127.0.0.1:9002');
    expect(configured).not.toContain(TOKEN);
    expect(channelProviders(loadConfig({ PUSHOVER_APP_TOKEN: TOKEN }).notify).pushover).toBe('pushover');
  });
});
