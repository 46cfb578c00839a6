import { generateKeyPairSync } from 'node:crypto';
import { createDevInboxSender, listDevInbox } from '../../../src/services/dev-inbox';
import { closeChannelSenders, createChannelSenders } from '../../../src/integrations/wiring';
import type { ChannelSender, OutgoingPage } from '../../../src/integrations/types';
import { CHANNEL_IDS, CHANNELS, type ChannelId } from '../../../src/domain/channels';
import { loadConfig } from '../../../src/config';
import { openOrm, type MikroORM } from '../../../src/db/orm';
import { knexOf } from '../../../src/db/knex';
import { startApnsFake, type ApnsFake } from '../../../src/integrations/apns/testing/wire-fake';
import { startFcmFake, type FcmFake } from '../../../src/integrations/fcm/testing/wire-fake';
import { startSendgridFake, type SendgridFake } from '../../../src/integrations/sendgrid/testing/wire-fake';
import { startSmtpFake, type SmtpFake } from '../../../src/integrations/smtp/testing/wire-fake';
import { makeTestCert, type TestCert } from '../../../src/integrations/testing/tls-cert';
import { startTwilioFake, type TwilioFake } from '../../../src/integrations/twilio/testing/wire-fake';

const SID = 'AC' + 'c3'.repeat(16);
const apnsKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
let orm: MikroORM;
let fakes: { twilio: TwilioFake; sendgrid: SendgridFake; smtp: SmtpFake; apns: ApnsFake; fcm: FcmFake; cert: TestCert };
const opened: Array<Record<ChannelId, ChannelSender>> = [];
beforeAll(async () => {
  orm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 4);
  const cert = makeTestCert();
  fakes = {
    cert,
    twilio: await startTwilioFake({ accountSid: SID, authToken: 'tw-token' }),
    sendgrid: await startSendgridFake({ apiKey: 'SG.key' }),
    smtp: await startSmtpFake({ user: 'u', password: 'p4ss' }),
    apns: await startApnsFake({
      cert,
      publicKey: apnsKey.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      keyId: 'KID',
      teamId: 'TEAM',
      topic: 'com.example.klaxon',
    }),
    fcm: await startFcmFake({ projectId: 'proj' }),
  };
});
afterAll(async () => {
  for (const senders of opened) await closeChannelSenders(senders);
  await Promise.all([fakes.twilio.close(), fakes.sendgrid.close(), fakes.smtp.close(), fakes.apns.close(), fakes.fcm.close()]);
  fakes.cert.remove();
  await orm.close();
});

/** Senders built the way the worker builds them: from environment variables through loadConfig. */
function sendersFor(env: Record<string, string>) {
  const senders = createChannelSenders(loadConfig(env).notify, { orm });
  opened.push(senders);
  return senders;
}
const everyProvider = () => ({
  TWILIO_ACCOUNT_SID: SID,
  TWILIO_AUTH_TOKEN: 'tw-token',
  TWILIO_FROM_NUMBER: '+15550001111',
  TWILIO_API_BASE_URL: fakes.twilio.url,
  SENDGRID_API_KEY: 'SG.key',
  SENDGRID_API_BASE_URL: fakes.sendgrid.url,
  APNS_KEY: apnsKey.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  APNS_KEY_ID: 'KID',
  APNS_TEAM_ID: 'TEAM',
  APNS_TOPIC: 'com.example.klaxon',
  APNS_HOST: '127.0.0.1',
  APNS_PORT: String(fakes.apns.port),
  APNS_CA_FILE: fakes.cert.certFile,
  FCM_SERVICE_ACCOUNT: JSON.stringify(fakes.fcm.serviceAccount),
  FCM_BASE_URL: fakes.fcm.url,
});

/** Addresses of the channels this file knows; any later channel pages its declared placeholder address. */
const ADDRESSES: Partial<Record<ChannelId, string>> = {
  sms: '+15559990001',
  voice: '+15559990002',
  email: 'ops@example.test',
  push_ios: 'ab'.repeat(32),
  push_android: 'android-token-1',
  push_web: JSON.stringify({ endpoint: 'https://push.example.test/send/abc', keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) } }),
  slack: 'U0SLACK001',
};
const addressOf = (channel: ChannelId): string => ADDRESSES[channel] ?? CHANNELS[channel].address.placeholder;
/** Web push is always configured (its VAPID keys are generated): never the dev inbox; test/integration/web-push covers it. */
const INBOX_CAPABLE = CHANNEL_IDS.filter((c) => c !== 'push_web');
const page = (channel: ChannelId, tag: string): OutgoingPage => ({
  notificationId: crypto.randomUUID(),
  channel,
  to: addressOf(channel),
  subject: `Subject ${tag}`,
  text: `Body ${tag}`,
  ...(channel === 'voice' && { voiceTwiml: '<Response><Say>hi</Say></Response>' }),
  ...(channel.startsWith('push') && { push: { category: 'KLAXON_INCIDENT', data: { incident_id: 'i1' } } }),
});
const inboxRows = (tag: string) => knexOf(orm)('dev_deliveries').where('body', `Body ${tag}`).orderBy('channel');

describe('createChannelSenders', () => {
  it('when no provider is configured, then every channel stores its page in the dev inbox and returns the row id', async () => {
    const senders = sendersFor({});
    const sent = await Promise.all(INBOX_CAPABLE.map((c) => senders[c].send(page(c, 'none'))));
    const rows = await inboxRows('none');
    expect(sent.map((s) => s.provider)).toEqual(INBOX_CAPABLE.map(() => 'dev_inbox'));
    expect(senders.push_web.provider).toBe('web-push');
    expect(rows.map((r) => r.channel)).toEqual([...INBOX_CAPABLE].sort());
    expect(rows.map((r) => r.id).sort()).toEqual(sent.map((s) => s.providerMessageId).sort());
    const voice = rows.find((r) => r.channel === 'voice');
    expect(voice).toMatchObject({ to: ADDRESSES.voice, subject: 'Subject none', body: 'Body none' });
    expect(voice.payload).toMatchObject({ channel: 'voice', voiceTwiml: '<Response><Say>hi</Say></Response>' });
  });

  it('when every provider is configured, then each channel reaches its own provider and nothing lands in the dev inbox', async () => {
    const senders = sendersFor(everyProvider());
    // The channels whose providers everyProvider() configures. Slack DMs need a workspace's
    // installation (test/integration/chat/slack-dm.test.ts); later integrations page through their own wire fakes.
    const configuredHere: ChannelId[] = ['sms', 'voice', 'email', 'push_ios', 'push_android'];
    const sent = await Promise.all(configuredHere.map((c) => senders[c].send(page(c, 'all'))));
    expect(sent.map((s) => s.provider)).toEqual(['twilio', 'twilio', 'sendgrid', 'apns', 'fcm']);
    expect(senders.push_web.provider).toBe('web-push');
    expect(await inboxRows('all')).toEqual([]);
    expect(fakes.twilio.messages().some((m) => m.params.Body === 'Body all')).toBe(true);
    expect(fakes.twilio.calls().some((c) => c.params.To === ADDRESSES.voice)).toBe(true);
    expect(fakes.sendgrid.emails().some((e) => e.body.subject === 'Subject all')).toBe(true);
    expect(fakes.apns.pushes().some((p) => p.payload.aps.alert.body === 'Body all')).toBe(true);
    expect(fakes.fcm.pushes().some((p) => p.body.message.notification.body === 'Body all')).toBe(true);
  });

  it('when SMTP_URL is set beside a SendGrid key, then email goes over SMTP', async () => {
    const senders = sendersFor({
      SENDGRID_API_KEY: 'SG.key',
      SENDGRID_API_BASE_URL: fakes.sendgrid.url,
      SMTP_URL: fakes.smtp.url(),
      EMAIL_FROM: 'Pager <pager@example.test>',
    });
    const before = fakes.sendgrid.requests.length;
    await expect(senders.email.send(page('email', 'smtp'))).resolves.toMatchObject({ provider: 'smtp' });
    expect((await fakes.smtp.waitFor((m) => m.data.includes('Subject smtp'))).from).toBe('pager@example.test');
    expect(fakes.sendgrid.requests.length).toBe(before);
    expect(senders.sms.provider).toBe('dev_inbox');
  });
});

describe('listDevInbox', () => {
  it('when asked for the latest N, then the newest come first', async () => {
    const sender = createDevInboxSender(orm, 'sms');
    for (const n of [1, 2, 3]) {
      await sender.send(page('sms', `order-${n}`));
      // created_at has millisecond precision: keep the three apart so "newest" is well defined.
      await new Promise((r) => setTimeout(r, 5));
    }
    const latest = await listDevInbox(orm, { limit: 2 });
    expect(latest.map((m) => m.body)).toEqual(['Body order-3', 'Body order-2']);
    expect(latest[0]).toMatchObject({ channel: 'sms', to: ADDRESSES.sms, created_at: expect.stringMatching(/Z$/) });
  });

  it.each([0, -1, 1.5, 5000])('when the limit is %p, then a clear error and nothing read or written', async (limit) => {
    const before = (await knexOf(orm)('dev_deliveries').count({ n: '*' }))[0].n;
    await expect(listDevInbox(orm, { limit })).rejects.toThrow('limit must be a whole number from 1 to 1000');
    expect((await knexOf(orm)('dev_deliveries').count({ n: '*' }))[0].n).toBe(before);
  });
});
