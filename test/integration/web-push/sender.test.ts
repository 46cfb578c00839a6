import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { loadConfig } from '../../../src/config';
import { normaliseAddress } from '../../../src/domain/channels';
import { createWebPushSender, vapidKeys, webPushSettings, type WebPushConfig } from '../../../src/integrations/web-push';
import { callProvider } from '../../../src/integrations/provider-call';
import { keepsContactMethod, type ChannelSender, type OutgoingPage } from '../../../src/integrations/types';
import { waitFor } from '../../support/wait';
import { startWebPushFake, type FakeSubscription, type WebPushFake } from '../../../src/integrations/web-push/testing/wire-fake';
import { makeTestCert, type TestCert } from '../../../src/integrations/testing/tls-cert';
import { expectPermanent, expectRetryable } from '../providers/expect-failure';

const INCIDENT = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
let cert: TestCert;
let fake: WebPushFake;
let dataDir: string;
const senders: ChannelSender[] = [];

const configFor = (env: Record<string, string> = {}): WebPushConfig =>
  webPushSettings(
    loadConfig({ KLAXON_DATA_DIR: dataDir, APP_URL: 'https://klaxon.example.test', ALLOW_PRIVATE_TARGETS: 'true', WEB_PUSH_CA_FILE: cert.certFile, ...env })
      .notify,
  );
const sender = (config = configFor()) => {
  const s = createWebPushSender(config);
  senders.push(s);
  return s;
};
/** The address a push_web contact method stores for a subscription. */
const addressOf = (sub: FakeSubscription) => {
  const r = normaliseAddress('push_web', JSON.stringify(sub.toJSON()));
  if (!r.ok) throw new Error(r.message);
  return r.address;
};
const page = (sub: FakeSubscription): OutgoingPage => ({
  notificationId: 'n-1',
  channel: 'push_web',
  to: addressOf(sub),
  subject: '#12 Checkout is down',
  text: 'CRITICAL incident #12',
  push: { category: 'KLAXON_INCIDENT', data: { incident_id: INCIDENT, acknowledge_token: 'ack-token', resolve_token: 'res-token' } },
});

beforeAll(async () => {
  cert = makeTestCert();
  fake = await startWebPushFake({ cert });
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'klaxon-web-push-'));
});
afterAll(async () => {
  await Promise.all(senders.map((s) => s.close?.()));
  await fake.close();
  cert.remove();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the push_web sender through web-push', () => {
  it('when a page is pushed, then the service gets one aes128gcm push, VAPID-signed for its origin with the data folder key, urgent, an hour to live, topic the incident', async () => {
    const sub = fake.subscribe();
    await expect(sender().send(page(sub))).resolves.toEqual({ provider: 'web-push', providerMessageId: null });
    const [got] = fake.requests.filter((r) => r.subscriptionId === sub.id);
    expect(got.vapid).toMatchObject({
      valid: true,
      publicKey: vapidKeys(configFor()).publicKey,
      claims: { aud: fake.origin, sub: 'https://klaxon.example.test' },
    });
    expect(got.headers).toEqual({ urgency: 'high', ttl: '3600', topic: INCIDENT.replace(/-/g, ''), contentEncoding: 'aes128gcm' });
    expect(got.decryptError).toBeNull();
    expect(got.payload).toEqual({
      incident_id: INCIDENT,
      title: '#12 Checkout is down',
      body: 'CRITICAL incident #12',
      url: `https://klaxon.example.test/incidents/${INCIDENT}`,
      action_token: 'ack-token',
    });
  });

  it.each([410, 404])(
    'when the service answers %i, then the failure is permanent (the contact method is disabled), naming the host, not the path',
    async (status) => {
      const sub = fake.subscribe();
      fake.failWith(sub.id, status);
      const err = await expectPermanent(
        sender().send(page(sub)),
        new RegExp(`web-push: push to 127\\.0\\.0\\.1:${fake.port} refused: .*expired.*\\(HTTP ${status}\\)`),
        [sub.id, sub.keys.auth],
      );
      expect(keepsContactMethod(err)).toBe(false);
    },
  );

  it('when the service answers 400, then the page fails for good but the contact method stays', async () => {
    const sub = fake.subscribe();
    fake.failWith(sub.id, 400);
    const err = await expectPermanent(sender().send(page(sub)), /HTTP 400/, [sub.id]);
    expect(keepsContactMethod(err)).toBe(true);
  });

  it.each([429, 500])('when the service answers %i, then the error is retryable and a later push goes through', async (status) => {
    const sub = fake.subscribe();
    fake.failWith(sub.id, status);
    await expectRetryable(sender().send(page(sub)), new RegExp(`not accepted: HTTP ${status}`), [sub.id]);
    fake.clearFailure(sub.id);
    await expect(sender().send(page(sub))).resolves.toMatchObject({ provider: 'web-push' });
  });

  it('when the service certificate is not trusted, then nothing is delivered and the error is retryable', async () => {
    const sub = fake.subscribe();
    const before = fake.requests.length;
    await expectRetryable(sender({ ...configFor(), ca: undefined }).send(page(sub)), /not sent/, [sub.id]);
    expect(fake.requests.length).toBe(before);
  });

  it('when private targets are not allowed, then a loopback endpoint is refused before connecting, and the failure keeps the contact method', async () => {
    const sub = fake.subscribe();
    const before = fake.requests.length;
    const err = await expectPermanent(sender({ ...configFor(), allowPrivate: false }).send(page(sub)), /private address/, [sub.id]);
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect(keepsContactMethod(err)).toBe(true);
    expect(fake.requests.length).toBe(before);
  });

  it('when the push service has a private CA given by NODE_EXTRA_CA_CERTS (no WEB_PUSH_CA_FILE), then the sender trusts it and the push is delivered', async () => {
    const sub = fake.subscribe();
    // Asynchronously: the fake answers from this process, whose event loop must keep running.
    const run = async (extraCa: string | undefined) => {
      const env = { ...process.env, NODE_EXTRA_CA_CERTS: extraCa };
      if (extraCa === undefined) delete env.NODE_EXTRA_CA_CERTS;
      const child = await promisify(execFile)(
        process.execPath,
        [path.resolve('bin/run-ts.js'), path.join(__dirname, 'extra-ca-child.ts'), dataDir, addressOf(sub)],
        {
          encoding: 'utf8',
          env,
          timeout: 60_000,
        },
      );
      return JSON.parse(child.stdout.trim().split('\n').pop() ?? '{}') as { sent?: unknown; error?: string };
    };
    // Without the variable the fake's certificate is unknown: nothing reaches it.
    expect((await run(undefined)).error).toMatch(/not sent/);
    expect(fake.requests.filter((r) => r.subscriptionId === sub.id)).toHaveLength(0);
    expect(await run(cert.certFile)).toEqual({ sent: { provider: 'web-push', providerMessageId: null } });
    const [got] = fake.requests.filter((r) => r.subscriptionId === sub.id);
    expect(got.vapid.valid).toBe(true);
    expect(got.payload).toMatchObject({ title: 'Trusted by NODE_EXTRA_CA_CERTS', body: 'ca' });
  });

  it('when the subscription’s key has the right shape but is no P-256 point, then nothing is sent and the page fails for good, keeping the contact method', async () => {
    const sub = fake.subscribe();
    // 65 bytes, 0x04 then zeros: the shape of an uncompressed point, and no point of the curve.
    const bad = { ...sub, keys: { ...sub.keys, p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64)]).toString('base64url') } };
    const before = fake.requests.length;
    const err = await expectPermanent(sender().send({ ...page(sub), to: JSON.stringify({ endpoint: bad.endpoint, keys: bad.keys }) }), /not sent/, [sub.id]);
    expect(keepsContactMethod(err)).toBe(true);
    expect(fake.requests.length).toBe(before);
  });

  it('when the provider call is given up on before the push service’s endless answer ends, then the request is aborted at that moment, not left reading', async () => {
    const sub = fake.subscribe();
    fake.answerEndlessly(sub.id, 500, 'drip');
    const started = Date.now();
    const calling = callProvider(sender(), page(sub), 1_000);
    void calling.catch(() => undefined); // awaited below, after the connection is seen closed
    const answer = await waitFor(async () => fake.endlessAnswers.find((a) => a.subscriptionId === sub.id && a.closedAt !== null), 45_000, 'the answer closed');
    expect(answer.closedBy).toBe('client');
    // Closed by callProvider's deadline (1 s here), well before the sender's own (10 s).
    expect(answer.closedAt! - started).toBeLessThan(3_000);
    await expectRetryable(calling, /^web-push: no answer within 1 s$/, [sub.id]);
  });
});
