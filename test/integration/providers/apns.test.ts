import { generateKeyPairSync } from 'node:crypto';
import { createApnsSender } from '../../../src/integrations/apns';
import type { ChannelSender, OutgoingPage } from '../../../src/integrations/types';
import { startApnsFake, type ApnsFake } from '../../../src/integrations/apns/testing/wire-fake';
import { makeTestCert, type TestCert } from '../../../src/integrations/testing/tls-cert';
import { expectPermanent, expectRetryable } from './expect-failure';

const KEY_ID = 'ABC123DEFG';
const TEAM_ID = 'TEAM456789';
const TOPIC = 'com.example.klaxon';
// A fresh P-256 key in the PKCS#8 PEM form of Apple's .p8 files.
const keys = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const P8 = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const PUBLIC = keys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
const TOKEN = 'a1b2c3d4'.repeat(8);

let cert: TestCert;
let fake: ApnsFake;
const senders: ChannelSender[] = [];
const sender = (over: { key?: string; teamId?: string; port?: number; ca?: string | undefined } = {}) => {
  const s = createApnsSender({
    key: P8,
    keyId: KEY_ID,
    teamId: TEAM_ID,
    topic: TOPIC,
    host: '127.0.0.1',
    port: fake.port,
    production: false,
    ca: cert.cert,
    ...over,
  });
  senders.push(s);
  return s;
};
beforeAll(async () => {
  cert = makeTestCert();
  fake = await startApnsFake({ cert, publicKey: PUBLIC, keyId: KEY_ID, teamId: TEAM_ID, topic: TOPIC });
});
afterAll(async () => {
  await Promise.all(senders.map((s) => s.close?.()));
  await fake.close();
  cert.remove();
});

const page = (over: Partial<OutgoingPage> = {}): OutgoingPage => ({
  notificationId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  channel: 'push_ios',
  to: TOKEN,
  subject: 'Checkout is down',
  text: 'critical · payments · opened 09:14',
  push: { category: 'KLAXON_INCIDENT', data: { incident_id: 'inc-1', ack_url: 'https://app.example.test/a/abc' } },
  ...over,
});

describe('APNs push through @parse/node-apn', () => {
  it('when an iOS page is sent, then the fake receives the alert, category and data over HTTP/2 with a valid ES256 provider token, and the apns-id comes back', async () => {
    const sent = await sender().send(page());
    const got = fake.pushes().find((p) => p.apnsId === sent.providerMessageId)!;
    expect(sent).toEqual({ provider: 'apns', providerMessageId: '7c9e6679-7425-40de-944b-e07fc1f90ae7' });
    expect(got.token).toBe(TOKEN);
    expect(got.authorized).toBe(true);
    expect(got.headers).toMatchObject({ 'apns-topic': TOPIC, 'apns-push-type': 'alert', 'apns-priority': '10', 'apns-id': page().notificationId });
    expect(Number(got.headers['apns-expiration'])).toBeGreaterThan(Date.now() / 1000);
    expect(got.payload).toEqual({
      aps: { alert: { title: 'Checkout is down', body: 'critical · payments · opened 09:14' }, category: 'KLAXON_INCIDENT', sound: 'default' },
      incident_id: 'inc-1',
      ack_url: 'https://app.example.test/a/abc',
      notification_id: page().notificationId,
    });
  });

  it.each([
    [410, 'Unregistered'],
    [400, 'BadDeviceToken'],
    [400, 'DeviceTokenNotForTopic'],
  ])('when APNs answers %i %s, then the failure is permanent and readable', async (status, reason) => {
    const token = `${reason.toLowerCase()}${'0'.repeat(40)}`;
    fake.failToken(token, { status, reason });
    await expectPermanent(sender().send(page({ to: token })), new RegExp(`device ${token.slice(0, 8)}… refused: ${reason} \\(HTTP ${status}\\)`), [P8]);
  });

  it('when APNs answers 500, then the error is retryable and a later attempt succeeds', async () => {
    const token = 'feedface'.repeat(8);
    fake.failToken(token, { status: 500, reason: 'InternalServerError' });
    await expectRetryable(sender().send(page({ to: token })), /HTTP 500/, [P8]);
    fake.clearFailure(token);
    await expect(sender().send(page({ to: token }))).resolves.toMatchObject({ provider: 'apns' });
  });

  it('when the provider token is signed with another key, then APNs refuses it, the error is retryable and no key leaks', async () => {
    const other = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await expectRetryable(sender({ key: other }).send(page()), /HTTP 403 InvalidProviderToken/, [P8, other]);
    expect(fake.requests.at(-1)).toMatchObject({ status: 403, authorized: false });
  });

  it('when the server certificate is not trusted, then nothing is sent and the error is retryable', async () => {
    const before = fake.requests.length;
    await expectRetryable(sender({ ca: undefined }).send(page()), /push not sent/, [P8]);
    expect(fake.requests.length).toBe(before);
  });
});
