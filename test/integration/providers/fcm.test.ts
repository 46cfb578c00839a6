import { generateKeyPairSync } from 'node:crypto';
import { createFcmSender } from '../../../src/integrations/fcm';
import type { OutgoingPage } from '../../../src/integrations/types';
import { startFcmFake, type FcmFake } from '../../../src/integrations/fcm/testing/wire-fake';
import { closedPort } from '../../../src/integrations/testing/http-util';
import { PROVIDER_CALL_TIMEOUT_MS } from '../../../src/domain/paging/attempt-timeouts';
import { providerDidNotAccept } from '../../../src/integrations/failures';
import { MiB, RssSampler } from '../../support/rss-sampler';
import { waitFor } from '../../support/wait';
import { expectPermanent, expectRetryable } from './expect-failure';

const PROJECT = 'klaxon-test';
let fake: FcmFake;
let sender: ReturnType<typeof createFcmSender>;
beforeAll(async () => {
  fake = await startFcmFake({ projectId: PROJECT });
  sender = createFcmSender({ projectId: PROJECT, serviceAccount: fake.serviceAccount, baseUrl: fake.url });
});
afterAll(() => fake.close());

const TOKEN = 'fcm-registration-token-' + 'x'.repeat(40);
const page = (over: Partial<OutgoingPage> = {}): OutgoingPage => ({
  notificationId: '3e4f5a6b-7c8d-4e9f-8a0b-1c2d3e4f5a6b',
  channel: 'push_android',
  to: TOKEN,
  subject: 'Checkout is down',
  text: 'critical · payments',
  push: { category: 'KLAXON_INCIDENT', data: { incident_id: 'inc-1' } },
  ...over,
});

describe('FCM HTTP v1 with a google-auth-library service-account token', () => {
  it('when an Android page is sent, then the fake receives the notification, data and click action with a bearer it issued, and the message name comes back', async () => {
    const sent = await sender.send(page());
    const got = fake.pushes().find((p) => p.name === sent.providerMessageId)!;
    expect(sent).toEqual({ provider: 'fcm', providerMessageId: `projects/${PROJECT}/messages/1` });
    expect(got.authorized).toBe(true);
    expect(got.project).toBe(PROJECT);
    expect(got.body).toEqual({
      message: {
        token: TOKEN,
        notification: { title: 'Checkout is down', body: 'critical · payments' },
        data: { incident_id: 'inc-1', notification_id: page().notificationId, category: 'KLAXON_INCIDENT' },
        android: { priority: 'HIGH', ttl: '3600s', notification: { click_action: 'KLAXON_INCIDENT', sound: 'default' } },
      },
    });
    expect(fake.grants).toEqual([{ ok: true, at: expect.any(Number) }]);
  });

  it('when a second page is sent, then the access token is reused, not fetched again', async () => {
    await sender.send(page());
    expect(fake.grants.filter((g) => g.ok)).toHaveLength(1);
  });

  it.each([
    ['UNREGISTERED', /refused: UNREGISTERED: Requested entity was not found\. \(HTTP 404\)/],
    ['INVALID_ARGUMENT', /refused: INVALID_ARGUMENT: .* \(HTTP 400\)/],
  ] as const)('when FCM answers %s, then the failure is permanent and readable', async (code, message) => {
    const token = `${code.toLowerCase()}-${'y'.repeat(30)}`;
    fake.failToken(token, code);
    const err = await expectPermanent(sender.send(page({ to: token })), message, [fake.serviceAccount.private_key]);
    expect(err.message).toContain(token.slice(0, 8));
  });

  it('when FCM answers 500, then the error is retryable and a later attempt succeeds', async () => {
    const token = 'flaky-' + 'z'.repeat(30);
    fake.failToken(token, 'INTERNAL');
    await expectRetryable(sender.send(page({ to: token })), /INTERNAL.*HTTP 500/, [fake.serviceAccount.private_key]);
    fake.clearFailure(token);
    await expect(sender.send(page({ to: token }))).resolves.toMatchObject({ provider: 'fcm' });
  });

  it('when the service-account key is not the registered one, then the grant is refused, nothing is sent and the error is retryable without the key', async () => {
    const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const impostor = createFcmSender({ projectId: PROJECT, serviceAccount: { ...fake.serviceAccount, private_key: otherKey }, baseUrl: fake.url });
    const before = fake.requests.length;
    await expectRetryable(impostor.send(page()), /access token: invalid_grant/, [otherKey, fake.serviceAccount.private_key]);
    expect(fake.grants.at(-1)!.ok).toBe(false);
    expect(fake.requests.length).toBe(before);
  });

  it('when FCM cannot be reached, then the error is retryable', async () => {
    const nowhere = createFcmSender({ projectId: PROJECT, serviceAccount: fake.serviceAccount, baseUrl: `http://127.0.0.1:${await closedPort()}` });
    await expectRetryable(nowhere.send(page()), /push not sent: connection refused/, [fake.serviceAccount.private_key]);
  });

  // Issue 36: FCM's answer was read whole (`res.json()`), for as long as the call's 10 s allowed.
  it('when FCM answers 500 with a body that never ends, then the send fails (not accepted) with the status, memory grows by far less than was sent, and Klaxon closes the connection', async () => {
    const token = 'endless-' + 'e'.repeat(30);
    fake.answerEndlessly(token, 500, 'flood');
    const memory = RssSampler.start();
    const err = await expectRetryable(sender.send(page({ to: token })), /^fcm: push not accepted: error \(HTTP 500\)$/, [fake.serviceAccount.private_key]);
    const rss = memory.stop();
    expect(providerDidNotAccept(err)).toBe(true);
    const answer = await waitFor(async () => fake.endlessAnswers.find((a) => a.token === token && a.closedAt !== null), 45_000, 'the answer closed');
    expect(answer.closedBy).toBe('client');
    expect(answer.closedAt! - answer.openedAt).toBeLessThan(PROVIDER_CALL_TIMEOUT_MS);
    expect(answer.bytes).toBeLessThan(16 * MiB);
    expect(rss.growth).toBeLessThan(64 * MiB);
  }, 60_000);

  it('when FCM answers a redirect, then it is not followed: the send fails with the 3xx and nothing reaches where it pointed', async () => {
    const token = 'redirected-' + 'r'.repeat(30);
    fake.redirectToken(token, 307);
    await expectRetryable(sender.send(page({ to: token })), /^fcm: push not accepted: error \(HTTP 307\)$/, [fake.serviceAccount.private_key]);
    expect(fake.redirected).toEqual([]);
  });
});
