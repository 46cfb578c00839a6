import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../../src/config';
import { knexOf } from '../../../src/db/knex';
import { vapidKeys, webPushSettings } from '../../../src/integrations/web-push';
import { addContactMethod, addMemberContactMethod } from '../../../src/services/paging/contacts';
import { dashboard, expectDashboardError, memberSession, type DashboardSession } from '../../support/dashboard';
import { pagingService, statusOf, timelineOf, trigger } from '../../support/paging';
import { startTestStack, type TestStack } from '../../support/stack';
import { waitFor } from '../../support/wait';
import { seedWorkspace, type SeededWorkspace } from '../../support/workspace';
import { makeTestCert, type TestCert } from '../../../src/integrations/testing/tls-cert';
import { startWebPushFake, type FakeSubscription, type WebPushFake } from '../../../src/integrations/web-push/testing/wire-fake';

/*
 * The push service is a local HTTPS fake: the stack trusts its test certificate through
 * WEB_PUSH_CA_FILE (as APNs' fake through APNS_CA_FILE; the stack runs in this process, so
 * NODE_EXTRA_CA_CERTS, read at process start, cannot be set for it), and reaches 127.0.0.1
 * because ALLOW_PRIVATE_TARGETS is on (metadata endpoints stay refused whatever it says).
 */
let cert: TestCert;
let fake: WebPushFake;
let stack: TestStack;
let dataDir: string;
let ws: SeededWorkspace;

beforeAll(async () => {
  cert = makeTestCert();
  fake = await startWebPushFake({ cert });
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'klaxon-web-push-'));
  stack = await startTestStack({ env: { KLAXON_DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: 'true', WEB_PUSH_CA_FILE: cert.certFile } });
  ws = await seedWorkspace(stack.orm);
});
afterAll(async () => {
  await stack?.stop();
  await fake?.close();
  cert?.remove();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const api = (method: string, p: string, opts: Parameters<typeof dashboard>[3] = {}) => dashboard(stack.urls.app, method, p, opts);
const member = () => memberSession(stack.urls.app, stack.orm, ws.organizationId, 'MEMBER');
const db = () => knexOf(stack.orm);
const addPush = (session: DashboardSession, address: unknown, label = 'Chrome on Android') =>
  api('POST', '/contact-methods', { session, body: { type: 'push_web', address, label } });
/** A member whose only contact method is this browser, paged at once. */
async function pushResponder(sub: FakeSubscription) {
  const me = await member();
  const added = await addPush(me, sub.toJSON());
  expect(added.status).toBe(201);
  const rule = await api('POST', '/notification-rules', { session: me, body: { contact_method_id: added.body.data.id, delay_seconds: 0 } });
  expect(rule.status).toBe(201);
  return { ...me, contactId: added.body.data.id as string };
}
const pageOn = async (userId: string) =>
  trigger(await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: userId }] }] }, stack.urls.ingest));

describe('paging a browser', () => {
  it('when a member with a browser subscription is paged, then one VAPID-signed, encrypted push arrives, and its action token acknowledges exactly once', async () => {
    const sub = fake.subscribe();
    const me = await pushResponder(sub);
    const incidentId = await pageOn(me.userId);
    const got = await fake.waitFor((r) => r.subscriptionId === sub.id);
    const key = await api('GET', '/push/vapid-public-key', { session: me });
    expect(key.status).toBe(200);
    expect(got.vapid).toMatchObject({ valid: true, publicKey: key.body.data.public_key, claims: { aud: fake.origin } });
    expect(got.headers).toEqual({ urgency: 'high', ttl: '3600', topic: incidentId.replace(/-/g, ''), contentEncoding: 'aes128gcm' });
    expect(got.payload).toEqual({
      incident_id: incidentId,
      title: expect.stringContaining('Database down'),
      body: expect.stringContaining('incident #'),
      url: `${stack.urls.app}/incidents/${incidentId}`,
      action_token: expect.any(String),
    });
    const ack = await fetch(`${stack.urls.app}/hooks/push/action`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: got.payload.action_token }),
    });
    expect(ack.status).toBe(200);
    expect(await statusOf(stack.orm, incidentId)).toBe('ACKNOWLEDGED');
    const again = await fetch(`${stack.urls.app}/hooks/push/action`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: got.payload.action_token }),
    });
    expect(again.status).toBe(409);
    expect((await timelineOf(stack.orm, incidentId)).filter((e) => e.to_status === 'ACKNOWLEDGED')).toHaveLength(1);
    expect(fake.requests.filter((r) => r.subscriptionId === sub.id)).toHaveLength(1);
    // The timeline names the push service's host, never the subscription.
    const lines = (await timelineOf(stack.orm, incidentId)).map((e) => e.message).join('\n');
    expect(lines).toContain(`Web push to ${me.email} (browser via 127.0.0.1:${fake.port}) sent`);
    expect(lines).not.toContain(sub.keys.auth);
    expect(lines).not.toContain(sub.id);
  });

  it('when the push service answers 410, then the contact method is disabled and the timeline says why', async () => {
    const sub = fake.subscribe();
    fake.failWith(sub.id, 410);
    const me = await pushResponder(sub);
    const incidentId = await pageOn(me.userId);
    const line = await waitFor(
      async () => (await timelineOf(stack.orm, incidentId)).find((e) => e.type === 'notification' && /failed/.test(e.message ?? ''))?.message,
      20_000,
      'the failed page on the timeline',
    );
    expect(line).toMatch(
      /^Web push to .* failed: web-push: push to 127\.0\.0\.1:\d+ refused: the browser subscription has expired or was unsubscribed \(HTTP 410\)/,
    );
    const contact = await db()('contact_methods').where({ id: me.contactId }).first();
    expect(contact.disabled_at).not.toBeNull();
    expect(contact.disabled_reason).toMatch(/HTTP 410/);
    expect(fake.requests.filter((r) => r.subscriptionId === sub.id)).toHaveLength(1);
  });
});

describe('push_web contact methods', () => {
  it('when a subscription is given as JSON text with extra fields, then it is stored as canonical JSON, verified at once, and the same endpoint again is 409', async () => {
    const me = await member();
    const sub = fake.subscribe();
    const res = await addPush(me, JSON.stringify({ ...sub.toJSON(), extra: 1 }), 'Firefox on Linux');
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ type: 'push_web', label: 'Firefox on Linux', verified_at: expect.any(String), disabled_at: null });
    expect(res.body.data.address).toBe(JSON.stringify({ endpoint: sub.endpoint, keys: sub.keys }));
    // The browser re-subscribed with new keys on the same endpoint: still the same device.
    const other = fake.subscribe();
    expectDashboardError(await addPush(me, { endpoint: sub.endpoint, keys: other.keys }), 409, 'duplicate_contact_method');
    expectDashboardError(await addPush(me, sub.toJSON()), 409, 'duplicate_contact_method');
  });

  it('when the subscription is malformed, then 400 names address and never repeats the keys', async () => {
    const me = await member();
    const sub = fake.subscribe();
    for (const bad of [
      { ...sub.toJSON(), keys: { ...sub.keys, auth: 'short' } },
      { ...sub.toJSON(), keys: { ...sub.keys, p256dh: sub.keys.p256dh.slice(0, 40) } },
      { ...sub.toJSON(), endpoint: sub.endpoint.replace('https:', 'http:') },
      'not json',
    ]) {
      const res = await addPush(me, bad);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/address/);
      expect(JSON.stringify(res.body)).not.toContain(sub.keys.p256dh.slice(0, 40));
      expect(JSON.stringify(res.body)).not.toContain(sub.id);
    }
    expect(await db()('contact_methods').where({ user_id: me.userId })).toHaveLength(0);
  });

  it('when the endpoint is a cloud metadata address, or a private one while private targets are not allowed, then 400 names address and nothing is stored', async () => {
    const me = await member();
    const sub = fake.subscribe();
    const metadata = await addPush(me, { endpoint: 'https://169.254.169.254/push/abc', keys: sub.keys });
    expect(metadata.status).toBe(400);
    expect(metadata.body.error).toMatch(/^address: .*cloud metadata/);
    expect(JSON.stringify(metadata.body)).not.toContain(sub.keys.auth);
    // This stack allows private targets (its fake is on loopback): the service call shows the default.
    await expect(
      addMemberContactMethod(
        stack.orm,
        { organizationId: ws.organizationId, userId: me.userId, type: 'push_web', address: JSON.stringify(sub.toJSON()) },
        { sendCode: async () => undefined, allowPrivateTargets: false },
      ),
    ).rejects.toThrow(/^address: .*private address/);
    expect(await db()('contact_methods').where({ user_id: me.userId })).toHaveLength(0);
  });

  it('when a test push is asked for, then the browser gets "Klaxon test push"; a 410 answers delivered false and disables it; an SMS number is 409', async () => {
    const me = await member();
    const sub = fake.subscribe();
    const id = (await addPush(me, sub.toJSON())).body.data.id;
    const ok = await api('POST', `/contact-methods/${id}/test`, { session: me });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ delivered: true, status_code: 201, error: null, provider: 'web-push' });
    const got = fake.requests.filter((r) => r.subscriptionId === sub.id).at(-1)!;
    expect(got.payload).toEqual({
      incident_id: null,
      title: 'Klaxon test push',
      body: expect.any(String),
      url: `${stack.urls.app}/profile`,
      action_token: null,
    });
    expect(got.vapid.valid).toBe(true);

    fake.failWith(sub.id, 410);
    const gone = await api('POST', `/contact-methods/${id}/test`, { session: me });
    expect(gone.body.data).toEqual({ delivered: false, status_code: 410, error: expect.stringMatching(/HTTP 410.*now disabled/), provider: 'web-push' });
    expect((await db()('contact_methods').where({ id }).first()).disabled_at).not.toBeNull();

    // A Slack DM takes no test send (an email, SMS or Pushover contact does: test/integration/paging/channels-api.test.ts).
    const slack = await addContactMethod(stack.orm, { email: me.email, type: 'slack', address: 'U0NOTEST02' });
    expectDashboardError(await api('POST', `/contact-methods/${slack.id}/test`, { session: me }), 409, 'test_not_supported');
    const stranger = await member();
    expectDashboardError(await api('POST', `/contact-methods/${id}/test`, { session: stranger }), 403, 'forbidden');
  });

  it('when the service answers 500 to a test push, then delivered is false with the status, and the contact method stays', async () => {
    const me = await member();
    const sub = fake.subscribe();
    const id = (await addPush(me, sub.toJSON())).body.data.id;
    fake.failWith(sub.id, 500);
    const res = await api('POST', `/contact-methods/${id}/test`, { session: me });
    expect(res.body.data).toEqual({ delivered: false, status_code: 500, error: expect.stringMatching(/HTTP 500/), provider: 'web-push' });
    expect((await db()('contact_methods').where({ id }).first()).disabled_at).toBeNull();
  });
});

describe('VAPID keys', () => {
  it('when no keys are configured, then the generated pair is kept in the data folder (0600) and the same after a config reload', async () => {
    const me = await member();
    const served = (await api('GET', '/push/vapid-public-key', { session: me })).body.data.public_key;
    expect(served).toMatch(/^[A-Za-z0-9_-]{87}$/);
    const file = path.join(dataDir, 'vapid-keys.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const reloaded = vapidKeys(webPushSettings(loadConfig({ KLAXON_DATA_DIR: dataDir }).notify));
    expect(reloaded.publicKey).toBe(served);
    expect(vapidKeys(webPushSettings(loadConfig({ KLAXON_DATA_DIR: dataDir }).notify))).toEqual(reloaded);
    expect((await api('GET', '/push/vapid-public-key')).status).toBe(401);
  });

  it('when keys are configured, then they are used and nothing is generated', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'klaxon-web-push-env-'));
    try {
      const given = vapidKeys(webPushSettings(loadConfig({ KLAXON_DATA_DIR: dir }).notify));
      const other = mkdtempSync(path.join(os.tmpdir(), 'klaxon-web-push-env-'));
      const config = webPushSettings(
        loadConfig({ KLAXON_DATA_DIR: other, WEB_PUSH_VAPID_PUBLIC_KEY: given.publicKey, WEB_PUSH_VAPID_PRIVATE_KEY: given.privateKey }).notify,
      );
      expect(vapidKeys(config)).toEqual(given);
      expect(() => statSync(path.join(other, 'vapid-keys.json'))).toThrow();
      rmSync(other, { recursive: true, force: true });
      expect(() => webPushSettings(loadConfig({ WEB_PUSH_VAPID_PUBLIC_KEY: given.publicKey }).notify)).toThrow(/WEB_PUSH_VAPID_PRIVATE_KEY: required/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('app devices', () => {
  const IOS = 'A1B2C3D4'.repeat(8);
  it('when an iOS device registers, then its push_ios contact method is created (201), the same token again answers it (200), and DELETE removes it', async () => {
    const me = await member();
    const created = await api('POST', '/devices', { session: me, body: { platform: 'ios', token: IOS, name: 'Ann’s iPhone' } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      type: 'push_ios',
      address: IOS.toLowerCase(),
      label: 'Ann’s iPhone',
      user_id: me.userId,
      verified_at: expect.any(String),
    });
    const again = await api('POST', '/devices', { session: me, body: { platform: 'ios', token: IOS, name: 'Ann’s iPhone' } });
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(created.body.data.id);
    const android = await api('POST', '/devices', { session: me, body: { platform: 'android', token: 'fcm:APA91b-token_1', name: 'Pixel' } });
    expect(android.status).toBe(201);
    expect(android.body.data).toMatchObject({ type: 'push_android', address: 'fcm:APA91b-token_1' });

    const removed = await api('DELETE', `/devices/${created.body.data.id}`, { session: me });
    expect(removed.status).toBe(200);
    expect(await db()('contact_methods').where({ id: created.body.data.id })).toHaveLength(0);
    const browser = (await addPush(me, fake.subscribe().toJSON())).body.data.id;
    expect((await api('DELETE', `/devices/${browser}`, { session: me })).status).toBe(404);
  });

  it.each([
    [{ platform: 'windows', token: IOS, name: 'PC' }, /^platform: /],
    [{ platform: 'ios', token: 'not a token', name: 'iPhone' }, /^token: /],
    [{ platform: 'android', token: '', name: 'Pixel' }, /^token: /],
    [{ platform: 'ios', token: IOS, name: 'x'.repeat(101) }, /^name: /],
  ])('when the body is %j, then 400 names the field', async (body, field) => {
    const me = await member();
    const res = await api('POST', '/devices', { session: me, body });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(field);
    expect(await db()('contact_methods').where({ user_id: me.userId })).toHaveLength(0);
  });
});
