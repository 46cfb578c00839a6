import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { knexOf } from '../../../src/db/knex';
import { keepsContactMethod, type OutgoingPage } from '../../../src/integrations/types';
import { createVonageSenders, type VonageConfig } from '../../../src/integrations/vonage';
import { startVonageFake, type VonageFake } from '../../../src/integrations/vonage/testing/wire-fake';
import { klaxon } from '../../support/cli';
import { dashboard, memberSession } from '../../support/dashboard';
import { notificationsOf, pagingService, responder, statusOf, timelineOf, trigger } from '../../support/paging';
import { startTestStack, type TestStack } from '../../support/stack';
import { waitFor } from '../../support/wait';
import { expectPermanent, expectRetryable } from '../providers/expect-failure';
import { seedWorkspace, type SeededWorkspace } from '../../support/workspace';

// docs/integrations/vonage.md: SMS and calls through the Vonage wire fake, its signed callbacks back.
const account = {
  apiKey: randomBytes(4).toString('hex'),
  apiSecret: `vonage-secret-${randomBytes(8).toString('hex')}`,
  applicationId: randomUUID(),
  privateKey: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  signatureSecret: `signature-${randomBytes(16).toString('hex')}`,
};
const FROM = '+15550003333';

let fake: VonageFake;
let stack: TestStack;
let ws: SeededWorkspace;

beforeAll(async () => {
  fake = await startVonageFake(account);
  stack = await startTestStack({
    env: {
      VONAGE_API_KEY: account.apiKey,
      VONAGE_API_SECRET: account.apiSecret,
      VONAGE_APPLICATION_ID: account.applicationId,
      VONAGE_PRIVATE_KEY: account.privateKey,
      VONAGE_FROM: FROM,
      VONAGE_SIGNATURE_SECRET: account.signatureSecret,
      VONAGE_API_URL: fake.url,
    },
  });
  ws = await seedWorkspace(stack.orm);
});
afterAll(async () => {
  await stack?.stop();
  await fake?.close();
});

const db = () => knexOf(stack.orm);
const digits = (e164: string) => e164.slice(1);

/** An incident paging one person at once on `channel`, and what reached Vonage for it. */
async function paged(channel: 'sms' | 'voice') {
  const person = await responder(stack.orm, ws.organizationId, channel);
  const ingestUrl = await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: person.id }] }] }, stack.urls.ingest);
  const incidentId = await trigger(ingestUrl);
  const request =
    channel === 'sms'
      ? await fake.waitFor('message', (m) => m.body.to === digits(person.address))
      : await fake.waitFor('call', (c) => (c.body.to as Array<{ number: string }>)[0].number === digits(person.address));
  const page = await waitFor(
    async () => (await notificationsOf(stack.orm, incidentId)).find((n) => n.status === 'sent' && n.provider_message_id === request.id),
    20_000,
    'the page sent',
  );
  return { person, incidentId, request, page };
}

const pageStatus = async (id: string) => (await db()('notifications').where({ id }).first('status', 'error')) as { status: string; error: string | null };
const acknowledgements = async (incidentId: string) => (await timelineOf(stack.orm, incidentId)).filter((e) => e.to_status === 'ACKNOWLEDGED');
const nccoOf = (reply: { body: string }) => JSON.parse(reply.body) as Array<{ action: string; text?: string; eventUrl?: string[] }>;

describe('paging by SMS through Vonage', () => {
  it('when an incident pages an SMS contact, then the Messages API gets the text with its webhook_url under the application JWT, and a delivered status marks the page delivered', async () => {
    const { request, page } = await paged('sms');
    expect(request.auth).toBe('jwt');
    expect(request.body).toEqual({
      message_type: 'text',
      channel: 'sms',
      to: request.body.to,
      from: digits(FROM),
      text: expect.stringMatching(/^Klaxon #\d+ CRITICAL: Database down .*Reply \d+A to acknowledge, \d+R to resolve$/),
      client_ref: page.id,
      webhook_url: `${stack.urls.app}/hooks/vonage/status`,
      webhook_version: 'v1',
    });
    expect(page.provider).toBe('vonage');

    const reply = await fake.messageStatus(request, 'delivered');
    expect(reply.status).toBe(204);
    expect(await pageStatus(page.id)).toEqual({ status: 'delivered', error: null });
  });

  it('when the person texts back "<code>a", then the incident is acknowledged by them via sms once, and Vonage texts them what happened', async () => {
    const { request, incidentId, person } = await paged('sms');
    const code = /Reply (\d+)A/.exec(String(request.body.text))![1];
    const inbound = `${stack.urls.app}/hooks/vonage/inbound`;
    const forged = await fake.inboundSms({ from: person.address, to: FROM, text: `${code}a`, url: inbound, signWith: 'not-the-signature-secret-0123456789' });
    expect(forged.status).toBe(401);
    expect(await statusOf(stack.orm, incidentId)).toBe('TRIGGERED');

    const messageUuid = randomUUID();
    const replied = await fake.inboundSms({ from: person.address, to: FROM, text: `${code}a`, url: inbound, messageUuid });
    expect(replied.status).toBe(204);
    expect(await statusOf(stack.orm, incidentId)).toBe('ACKNOWLEDGED');
    expect(await acknowledgements(incidentId)).toEqual([expect.objectContaining({ actor_id: person.id, via: 'sms' })]);
    const number = ((await db()('incidents').where({ id: incidentId }).first('number')) as { number: number }).number;
    const answer = await fake.waitFor('message', (m) => m.body.to === digits(person.address) && m.body.text === `Incident #${number} is acknowledged.`);
    expect(answer.body).toMatchObject({ from: digits(FROM), channel: 'sms' });

    // Vonage retrying the same inbound message acts no more.
    expect((await fake.inboundSms({ from: person.address, to: FROM, text: `${code}a`, url: inbound, messageUuid })).status).toBe(204);
    await fake.waitFor('message', (m) => m.body.to === digits(person.address) && m.body.text === 'Already handled.');
    expect(await acknowledgements(incidentId)).toHaveLength(1);
  });

  it('when Vonage reports the message rejected, then the page shows failed with its error on the incident', async () => {
    const { request, page, incidentId } = await paged('sms');
    expect((await fake.messageStatus(request, 'rejected')).status).toBe(204);
    const member = await memberSession(stack.urls.app, stack.orm, ws.organizationId, 'MEMBER');
    const incident = await dashboard(stack.urls.app, 'GET', `/incidents/${incidentId}`, { session: member });
    expect(incident.status).toBe(200);
    expect(incident.body.data.pages).toEqual([
      expect.objectContaining({
        id: page.id,
        channel: 'sms',
        provider: 'vonage',
        status: 'failed',
        error: 'provider reported rejected (1320: Message failed: the number is unreachable)',
      }),
    ]);
  });

  it('when Vonage says the number is invalid, then the page fails for good naming it, the contact method is disabled, and no secret is echoed', async () => {
    const person = await responder(stack.orm, ws.organizationId, 'sms');
    fake.failTo(person.address, { status: 422, title: 'Invalid params', detail: 'The value of one or more parameters is invalid.', invalidParameter: 'to' });
    const ingestUrl = await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: person.id }] }] }, stack.urls.ingest);
    const incidentId = await trigger(ingestUrl);
    const failed = await waitFor(async () => (await notificationsOf(stack.orm, incidentId)).find((n) => n.status === 'failed'), 20_000, 'the failed page');
    expect(failed.error).toMatch(/^vonage: SMS to \+1555\d{7} refused: invalid number/);
    for (const secret of [account.apiSecret, account.signatureSecret, 'PRIVATE KEY']) expect(failed.error).not.toContain(secret);
    expect((await db()('contact_methods').where({ id: person.contactId }).first()).disabled_at).not.toBeNull();
    // Refused at once: one attempt, not retried.
    expect(fake.requests.filter((r) => r.body.to === digits(person.address))).toHaveLength(1);
  });
});

describe('paging by voice through Vonage', () => {
  it('when an incident pages a voice contact, then the call speaks the incident and takes one key for the input hook; pressing 1 acknowledges once as that person', async () => {
    const { request, incidentId, person, page } = await paged('voice');
    const title = (await db()('incidents').where({ id: incidentId }).first('title', 'number')) as { title: string; number: number };
    expect(request.auth).toBe('jwt');
    expect(request.body).toMatchObject({
      to: [{ type: 'phone', number: digits(person.address) }],
      from: { type: 'phone', number: digits(FROM) },
      event_url: [`${stack.urls.app}/hooks/vonage/event`],
      event_method: 'POST',
    });
    const ncco = request.body.ncco as Array<Record<string, unknown>>;
    expect(ncco).toEqual([
      { action: 'talk', text: `Klaxon alert. critical incident ${title.number}: ${title.title}, on API. Press 1 to acknowledge.`, bargeIn: true },
      {
        action: 'input',
        type: ['dtmf'],
        dtmf: { maxDigits: 1, timeOut: 10 },
        eventUrl: [expect.stringMatching(new RegExp(`^${stack.urls.app}/hooks/vonage/input\\?token=[\\w.%-]+$`))],
        eventMethod: 'POST',
      },
    ]);

    const answered = await fake.callEvent(request, 'answered');
    expect(answered.status).toBe(204);
    expect((await pageStatus(page.id)).status).toBe('delivered');

    const other = await fake.pressKey(request, '7');
    expect(other.status).toBe(200);
    expect(nccoOf(other)).toEqual([
      expect.objectContaining({ action: 'talk', text: 'That key does nothing. Press 1 to acknowledge.' }),
      expect.objectContaining({ action: 'input', eventUrl: [fake.inputUrlOf(request.body.ncco)] }),
    ]);
    expect(await statusOf(stack.orm, incidentId)).toBe('TRIGGERED');

    const pressed = await fake.pressKey(request, '1');
    expect(pressed.status).toBe(200);
    expect(nccoOf(pressed)).toEqual([{ action: 'talk', text: `Incident #${title.number} is acknowledged. Goodbye.` }]);
    expect(await statusOf(stack.orm, incidentId)).toBe('ACKNOWLEDGED');
    expect(await acknowledgements(incidentId)).toEqual([expect.objectContaining({ actor_type: 'user', actor_id: person.id, via: 'voice' })]);

    // Vonage retrying the callback, or the key pressed again, acts no more.
    const again = await fake.pressKey(request, '1');
    expect(nccoOf(again)).toEqual([{ action: 'talk', text: `Incident #${title.number} was already acknowledged from this call. Goodbye.` }]);
    expect(await acknowledgements(incidentId)).toHaveLength(1);
  });

  it('when no key is pressed, then the call says goodbye and nothing changes; a busy call marks the page failed', async () => {
    const { request, incidentId, page } = await paged('voice');
    const silent = await fake.pressKey(request, '');
    expect(nccoOf(silent)).toEqual([{ action: 'talk', text: 'No key pressed. Goodbye.' }]);
    expect(await statusOf(stack.orm, incidentId)).toBe('TRIGGERED');
    expect((await fake.callEvent(request, 'busy')).status).toBe(204);
    expect(await pageStatus(page.id)).toEqual({ status: 'failed', error: 'provider reported busy' });
  });

  it('when a keypress or a status is unsigned, forged or altered, then it is refused with 401 and nothing changes', async () => {
    const { request, incidentId, page } = await paged('voice');
    const refusals: Array<Promise<{ status: number; body: string }>> = [
      fake.pressKey(request, '1', { unsigned: true }),
      fake.pressKey(request, '1', { signWith: 'not-the-signature-secret-0123456789' }),
      fake.pressKey(request, '1', { signedBody: JSON.stringify({ uuid: request.id, dtmf: { digits: '2', timed_out: false } }) }),
      fake.callEvent(request, 'completed', { unsigned: true }),
      fake.callEvent(request, 'completed', { signWith: 'not-the-signature-secret-0123456789' }),
    ];
    for (const refused of await Promise.all(refusals)) {
      expect(refused.status).toBe(401);
      expect(refused.body).not.toContain(account.signatureSecret);
    }
    expect(await statusOf(stack.orm, incidentId)).toBe('TRIGGERED');
    expect(await acknowledgements(incidentId)).toHaveLength(0);
    expect((await pageStatus(page.id)).status).toBe('sent');
  });

  it('when a signed keypress carries a token Klaxon did not sign, then the call hears so and nothing changes', async () => {
    const { request, incidentId } = await paged('voice');
    const url = `${stack.urls.app}/hooks/vonage/input?token=${encodeURIComponent('forged.token.value')}`;
    const reply = await fake.pressKey(request, '1', { url });
    expect(reply.status).toBe(200);
    expect(nccoOf(reply)).toEqual([{ action: 'talk', text: 'This call is not a page we know, or it has expired. Goodbye.' }]);
    expect(await statusOf(stack.orm, incidentId)).toBe('TRIGGERED');
  });

  it('when a callback is not JSON Vonage sends or is too large, then it is refused before anything is read', async () => {
    const { request } = await paged('voice');
    const notJson = await fake.callBack(`${stack.urls.app}/hooks/vonage/event`, { status: 'completed' });
    expect(notJson.status).toBe(400);
    const huge = await fake.callBack(`${stack.urls.app}/hooks/vonage/event`, { uuid: request.id, status: 'completed', pad: 'x'.repeat(20_000) });
    expect(huge.status).toBe(413);
  });
});

describe('drilling a voice contact through Vonage', () => {
  it('when a person is drilled by voice, then the call says it is a drill and pressing 1 acknowledges the drill, not an incident', async () => {
    const admin = await memberSession(stack.urls.app, stack.orm, ws.organizationId, 'ACCOUNT_ADMIN');
    const person = await responder(stack.orm, ws.organizationId, 'voice');
    const incidents = (await db()('incidents').count({ n: '*' }))[0].n;
    const res = await dashboard(stack.urls.app, 'POST', '/drills', { session: admin, body: { target: { type: 'user', id: person.id }, channels: ['voice'] } });
    expect(res.status).toBe(201);
    const call = await fake.waitFor('call', (c) => (c.body.to as Array<{ number: string }>)[0].number === digits(person.address));
    expect((call.body.ncco as Array<{ text?: string }>)[0].text).toMatch(/^This is a Klaxon paging drill\. .*Press 1 to acknowledge\.$/);
    const pressed = await fake.pressKey(call, '1');
    expect(nccoOf(pressed)).toEqual([{ action: 'talk', text: expect.stringMatching(/^Drill acknowledged.* Goodbye\.$/) }]);
    const drill = await waitFor(
      async () => {
        const d = await dashboard(stack.urls.app, 'GET', `/drills/${res.body.data.id}`, { session: admin });
        return d.body.data.results.find((r: { acknowledged_at: string | null }) => r.acknowledged_at);
      },
      20_000,
      'the drill result acknowledged',
    );
    expect(drill).toMatchObject({ channel: 'voice', user_id: person.id });
    expect((await db()('incidents').count({ n: '*' }))[0].n).toBe(incidents);
  });
});

describe('the Vonage senders on their own', () => {
  const config = (over: Partial<VonageConfig> = {}): VonageConfig => ({
    apiKey: account.apiKey,
    apiSecret: account.apiSecret,
    applicationId: account.applicationId,
    privateKey: account.privateKey,
    from: digits(FROM),
    fromIsNumber: true,
    signatureSecret: account.signatureSecret,
    apiUrl: fake.url,
    ...over,
  });
  const page = (to: string, over: Partial<OutgoingPage> = {}): OutgoingPage => ({
    notificationId: randomUUID(),
    channel: 'sms',
    to,
    subject: 'Checkout is down',
    text: 'Klaxon #4 CRITICAL: Checkout is down. Reply 4A to acknowledge, 4R to resolve',
    ...over,
  });
  const secrets = [account.apiSecret, account.signatureSecret, 'PRIVATE KEY'];

  it('when Vonage answers 500, then the page is retryable naming the status, and a later attempt is taken', async () => {
    const senders = createVonageSenders(config(), 'https://klaxon.example.test');
    fake.failTo('+15552000500', { status: 500, title: 'Internal Error', detail: 'try again' });
    await expectRetryable(senders.sms.send(page('+15552000500')), /^vonage: SMS not accepted: HTTP 500: Internal Error: try again$/, secrets);
    fake.clearFailure('+15552000500');
    await expect(senders.sms.send(page('+15552000500'))).resolves.toEqual({ provider: 'vonage', providerMessageId: expect.any(String) });
  });

  it('when the application JWT is signed by another key, then Vonage refuses with 401, retryably, and no secret leaks', async () => {
    const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const senders = createVonageSenders(config({ privateKey: otherKey }), 'https://klaxon.example.test');
    await expectRetryable(senders.sms.send(page('+15552000401')), /^vonage: SMS not accepted: HTTP 401: Unauthorized/, [...secrets, otherKey]);
    expect(fake.requests.filter((r) => r.body.to === '15552000401').map((r) => [r.auth, r.status])).toEqual([[null, 401]]);
  });

  it('when another 4xx refuses the page, then it fails for good but the contact method stays', async () => {
    const senders = createVonageSenders(config(), 'https://klaxon.example.test');
    fake.failTo('+15552000402', { status: 402, title: 'Low balance', detail: 'This request could not be performed due to your account balance being low.' });
    const failure = await expectPermanent(senders.sms.send(page('+15552000402')), /^vonage: SMS to \+15552000402 refused: HTTP 402: Low balance/, secrets);
    expect(keepsContactMethod(failure)).toBe(true);
  });

  it('when VONAGE_FROM is a sender id, then SMS go from it and a call is refused before reaching Vonage, keeping the contact method', async () => {
    const senders = createVonageSenders(config({ from: 'Klaxon', fromIsNumber: false }), 'https://klaxon.example.test');
    await senders.sms.send(page('+15552000403'));
    expect(fake.messages().find((m) => m.body.to === '15552000403')?.body.from).toBe('Klaxon');
    const before = fake.requests.length;
    const failure = await expectPermanent(
      senders.voice.send(page('+15552000404', { channel: 'voice', speech: { text: 'Checkout is down.', acknowledgeToken: 't' } })),
      /VONAGE_FROM is a sender id, and only a number can call/,
      secrets,
    );
    expect(keepsContactMethod(failure)).toBe(true);
    expect(fake.requests.length).toBe(before);
  });
});

describe('a bad Vonage variable at startup', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'klaxon-vonage-env-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('when a VONAGE_* value is malformed or its group is half set, then the process stops naming the variable, never its value', async () => {
    const half = await klaxon(
      ['api'],
      { KLAXON_DATA_DIR: dataDir, VONAGE_API_KEY: account.apiKey, VONAGE_API_SECRET: account.apiSecret },
      { testDatabase: false },
    );
    expect({ code: half.code, stderr: half.stderr.trim() }).toEqual({
      code: 1,
      stderr: 'klaxon: error: invalid configuration: VONAGE_APPLICATION_ID: required when VONAGE_API_KEY is set',
    });
    const badKey = await klaxon(
      ['worker'],
      {
        KLAXON_DATA_DIR: dataDir,
        VONAGE_API_KEY: account.apiKey,
        VONAGE_API_SECRET: account.apiSecret,
        VONAGE_APPLICATION_ID: account.applicationId,
        VONAGE_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\nkey-material-secret\n-----END PRIVATE KEY-----',
        VONAGE_FROM: FROM,
      },
      { testDatabase: false },
    );
    expect(badKey.code).toBe(1);
    expect(badKey.stderr).toMatch(/^klaxon: error: invalid configuration: VONAGE_PRIVATE_KEY: must be a PEM private key/);
    for (const secret of ['key-material-secret', account.apiSecret]) expect(badKey.stderr).not.toContain(secret);
  });
});
