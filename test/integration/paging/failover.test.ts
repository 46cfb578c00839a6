import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { recordCarrierAttempt, recordCarrierReport } from '../../../src/services/paging';
import { startVonageFake, type VonageFake, type VonageRequest } from '../../../src/integrations/vonage/testing/wire-fake';
import type { TwilioFake, TwilioRequest } from '../../../src/integrations/twilio/testing/wire-fake';
import { dashboard, memberSession } from '../../support/dashboard';
import { notificationsOf, pagingService, phoneNumber, responder, statusOf, timelineOf, trigger, twilioAccount } from '../../support/paging';
import { startTestStack, type TestStack } from '../../support/stack';
import { sleep, waitFor } from '../../support/wait';
import { seedWorkspace, type SeededWorkspace } from '../../support/workspace';

// docs/reliability.md, "Carriers": a phone page goes from Twilio to Vonage when Twilio refuses it,
// reports it failed, or does not confirm it within FAILOVER_AFTER_SECONDS; both through their wire fakes.
const FAILOVER_AFTER_SECONDS = 5;
const vonageAccount = {
  apiKey: randomBytes(4).toString('hex'),
  apiSecret: `vonage-secret-${randomBytes(8).toString('hex')}`,
  applicationId: randomUUID(),
  privateKey: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  signatureSecret: `signature-${randomBytes(16).toString('hex')}`,
};
const VONAGE_FROM = '+15550003333';

let twilio: TwilioFake;
let vonage: VonageFake;
let stack: TestStack;
let ws: SeededWorkspace;

beforeAll(async () => {
  const account = await twilioAccount();
  twilio = account.fake;
  vonage = await startVonageFake(vonageAccount);
  stack = await startTestStack({
    env: {
      ...account.env,
      VONAGE_API_KEY: vonageAccount.apiKey,
      VONAGE_API_SECRET: vonageAccount.apiSecret,
      VONAGE_APPLICATION_ID: vonageAccount.applicationId,
      VONAGE_PRIVATE_KEY: vonageAccount.privateKey,
      VONAGE_FROM,
      VONAGE_SIGNATURE_SECRET: vonageAccount.signatureSecret,
      VONAGE_API_URL: vonage.url,
      FAILOVER_AFTER_SECONDS: String(FAILOVER_AFTER_SECONDS),
      FAILOVER_ON_REPORTS: 'true',
      CARRIER_ROUTES: JSON.stringify({ '+4930': ['vonage', 'twilio'] }),
    },
  });
  ws = await seedWorkspace(stack.orm);
});
afterAll(async () => {
  await stack?.stop();
  await Promise.all([twilio?.close(), vonage?.close()]);
});

const db = () => knexOf(stack.orm);
// The breaker counts every carrier attempt of the last minutes: each test starts with none, so the
// failures one test makes on purpose do not reorder the next test's carriers.
beforeEach(async () => {
  await db()('carrier_attempts').del();
});
const digits = (e164: string) => e164.slice(1);
const statusHook = () => `${stack.urls.app}/hooks/twilio/status`;
const vonageSms = (to: string) => (m: VonageRequest) => m.body.to === digits(to);
const vonageCall = (to: string) => (c: VonageRequest) => (c.body.to as Array<{ number: string }>)[0].number === digits(to);
const twilioTo = (to: string) => (r: TwilioRequest) => r.params.To === to;

/** An incident paging one person at once on `channel` (a long step delay: only step 1 matters). */
async function incidentPaging(channel: 'sms' | 'voice', address = phoneNumber()) {
  const person = await responder(stack.orm, ws.organizationId, channel, address);
  const ingestUrl = await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: person.id }] }] }, stack.urls.ingest);
  return { person, incidentId: await trigger(ingestUrl) };
}

const attemptsOf = async (incidentId: string) =>
  (await db()('carrier_attempts').where({ incident_id: incidentId }).orderBy('created_at').select('carrier', 'status', 'error')) as Array<{
    carrier: string;
    status: string;
    error: string | null;
  }>;

/** The incident's failover line, once written. */
const failoverLine = (incidentId: string, timeoutMs = 20_000) =>
  waitFor(
    async () =>
      (await db()('timeline_entries').where({ incident_id: incidentId }).whereRaw(`data->>'kind' = 'failover'`).first('message', 'data', 'seq')) as
        { message: string; data: { carriers: Array<{ carrier: string; outcome: string }>; delivered_in_ms: number | null }; seq: number } | undefined,
    timeoutMs,
    'the failover line',
  );

/** A carrier reports on a message once it took it: when the page's row holds its id. */
const taken = (incidentId: string, sid: string) => waitFor(async () => (await pageOf(incidentId))?.provider_message_id === sid, 10_000, 'the page sent');

const pageOf = async (incidentId: string) =>
  (await notificationsOf(stack.orm, incidentId))[0] as { id: string; status: string; provider: string; provider_message_id: string };

describe('an SMS page failing over from Twilio to Vonage', () => {
  it('when Twilio refuses the SMS, then Vonage takes it at once, the page is one page sent via Vonage, and once delivered the timeline says both carriers and why', async () => {
    const to = phoneNumber();
    twilio.failTo(to, { status: 500, message: 'Internal Server Error' });
    const { incidentId } = await incidentPaging('sms', to);
    const message = await vonage.waitFor('message', vonageSms(to), 10_000);
    expect(twilio.requests.filter(twilioTo(to)).map((r) => r.status)).toEqual([500]);
    const page = await waitFor(async () => ((await pageOf(incidentId))?.status === 'sent' ? pageOf(incidentId) : undefined), 10_000, 'the page sent');
    expect(page).toMatchObject({ provider: 'vonage', provider_message_id: message.id });
    expect(await attemptsOf(incidentId)).toEqual([
      { carrier: 'twilio', status: 'refused', error: expect.stringContaining('HTTP 500') },
      { carrier: 'vonage', status: 'sent', error: null },
    ]);
    expect((await vonage.messageStatus(message, 'delivered')).status).toBe(204);
    const line = await failoverLine(incidentId);
    expect(line.message).toMatch(/^SMS via Twilio refused \(HTTP 500\) → sent via Vonage, delivered in \d+(\.\d)? m?s: page to .+@/);
    expect(line.data.carriers.map((c) => [c.carrier, c.outcome])).toEqual([
      ['twilio', 'refused'],
      ['vonage', 'delivered'],
    ]);
    expect((await pageOf(incidentId)).status).toBe('delivered');
    twilio.clearFailure(to);
  });

  it('when Twilio reports the SMS undelivered (30003), then Vonage sends it without waiting out the failover time, and a late report from Twilio sends nothing more', async () => {
    const to = phoneNumber();
    const { incidentId } = await incidentPaging('sms', to);
    const first = await twilio.waitFor('message', twilioTo(to));
    await taken(incidentId, first.sid!);
    const reported = Date.now();
    expect((await twilio.callBackTo(statusHook(), { MessageSid: first.sid!, MessageStatus: 'undelivered', ErrorCode: '30003' })).status).toBe(204);
    // Woken by the report: well inside the 5 s the page would otherwise wait.
    const message = await vonage.waitFor('message', vonageSms(to), (FAILOVER_AFTER_SECONDS - 2) * 1000);
    expect(message.at - reported).toBeLessThan(FAILOVER_AFTER_SECONDS * 1000);
    // The same reply code on both carriers' texts: a reply to either acts on this incident.
    expect(String(message.body.text)).toBe(first.params.Body);
    await vonage.messageStatus(message, 'delivered');
    const line = await failoverLine(incidentId);
    expect(line.message).toMatch(/^SMS via Twilio failed \(30003\) → sent via Vonage, delivered in /);

    // Twilio's late report on its own message: the page stays Vonage's, and nobody is sent anything.
    await twilio.callBackTo(statusHook(), { MessageSid: first.sid!, MessageStatus: 'delivered' });
    await sleep(1500);
    expect(await pageOf(incidentId)).toMatchObject({ status: 'delivered', provider: 'vonage', provider_message_id: message.id });
    expect(twilio.messages().filter(twilioTo(to))).toHaveLength(1);
    expect(vonage.messages().filter(vonageSms(to))).toHaveLength(1);
    expect((await timelineOf(stack.orm, incidentId)).filter((e) => e.type === 'notification')).toHaveLength(2);
  });

  it('when Twilio takes the SMS and never confirms it, then after FAILOVER_AFTER_SECONDS Vonage sends it, and the line says it was not confirmed', async () => {
    const to = phoneNumber();
    const { incidentId } = await incidentPaging('sms', to);
    const first = await twilio.waitFor('message', twilioTo(to));
    const message = await vonage.waitFor('message', vonageSms(to), (FAILOVER_AFTER_SECONDS + 10) * 1000);
    expect(message.at - first.at).toBeGreaterThanOrEqual(FAILOVER_AFTER_SECONDS * 1000 - 100);
    await vonage.messageStatus(message, 'delivered');
    const line = await failoverLine(incidentId);
    expect(line.message).toMatch(
      new RegExp(`^SMS via Twilio unconfirmed \\(not confirmed within ${FAILOVER_AFTER_SECONDS} s\\) → sent via Vonage, delivered in `),
    );
    expect(await attemptsOf(incidentId)).toEqual([
      { carrier: 'twilio', status: 'failed', error: `not confirmed within ${FAILOVER_AFTER_SECONDS} s` },
      { carrier: 'vonage', status: 'delivered', error: null },
    ]);
  });

  it('when Twilio confirms the SMS, then no other carrier is tried and no failover line is written', async () => {
    const to = phoneNumber();
    const { incidentId } = await incidentPaging('sms', to);
    const first = await twilio.waitFor('message', twilioTo(to));
    await taken(incidentId, first.sid!);
    await twilio.callBackTo(statusHook(), { MessageSid: first.sid!, MessageStatus: 'delivered' });
    await sleep((FAILOVER_AFTER_SECONDS + 2) * 1000);
    expect(vonage.requests.filter(vonageSms(to))).toHaveLength(0);
    expect(await pageOf(incidentId)).toMatchObject({ status: 'delivered', provider: 'twilio' });
    expect((await timelineOf(stack.orm, incidentId)).filter((e) => e.type === 'notification')).toHaveLength(1);
  });

  it('when the person acknowledges before the failover time, then Vonage is never asked, though Twilio never confirmed', async () => {
    const to = phoneNumber();
    const { person, incidentId } = await incidentPaging('sms', to);
    const first = await twilio.waitFor('message', twilioTo(to));
    const code = /Reply (\d+)A/.exec(first.params.Body!)![1];
    const reply = await twilio.replySms({ from: to, to: '+15550000000', body: `${code}a`, url: `${stack.urls.app}/hooks/twilio/sms` });
    expect(reply.status).toBe(200);
    expect(await statusOf(stack.orm, incidentId)).toBe('ACKNOWLEDGED');
    await sleep((FAILOVER_AFTER_SECONDS + 2) * 1000);
    expect(vonage.requests.filter(vonageSms(to))).toHaveLength(0);
    expect((await timelineOf(stack.orm, incidentId)).find((e) => e.to_status === 'ACKNOWLEDGED')).toMatchObject({ actor_id: person.id });
  });

  it('when CARRIER_ROUTES puts Vonage first for a prefix, then a number under it is paged through Vonage and Twilio is never asked once Vonage confirms', async () => {
    const to = `+4930${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const { incidentId } = await incidentPaging('sms', to);
    const message = await vonage.waitFor('message', vonageSms(to), 10_000);
    await vonage.messageStatus(message, 'delivered');
    await waitFor(async () => (await pageOf(incidentId)).status === 'delivered', 10_000, 'the page delivered');
    await sleep(1000);
    expect(twilio.requests.filter(twilioTo(to))).toHaveLength(0);
  });
});

describe('a voice page failing over', () => {
  it('when the Twilio call is not answered, then Vonage calls, and pressing 1 on that call acknowledges the incident as the person paged', async () => {
    const to = phoneNumber();
    const { person, incidentId } = await incidentPaging('voice', to);
    const first = await twilio.waitFor('call', twilioTo(to));
    await taken(incidentId, first.sid!);
    await twilio.callBackTo(statusHook(), { CallSid: first.sid!, CallStatus: 'no-answer' });
    const call = await vonage.waitFor('call', vonageCall(to), 10_000);
    await vonage.callEvent(call, 'answered');
    const pressed = await vonage.pressKey(call, '1');
    expect(pressed.status).toBe(200);
    expect(await statusOf(stack.orm, incidentId)).toBe('ACKNOWLEDGED');
    expect((await timelineOf(stack.orm, incidentId)).find((e) => e.to_status === 'ACKNOWLEDGED')).toMatchObject({ actor_id: person.id, via: 'voice' });
    const line = await failoverLine(incidentId);
    expect(line.message).toMatch(/^Voice call via Twilio failed \(no-answer\) → sent via Vonage, delivered in /);
  });

  it('when the Twilio call is answered, then that is its confirmation: no Vonage call follows', async () => {
    const to = phoneNumber();
    const { incidentId } = await incidentPaging('voice', to);
    const first = await twilio.waitFor('call', twilioTo(to));
    await taken(incidentId, first.sid!);
    await twilio.callBackTo(statusHook(), { CallSid: first.sid!, CallStatus: 'in-progress' });
    await waitFor(async () => (await pageOf(incidentId)).status === 'delivered', 10_000, 'the call confirmed');
    await sleep((FAILOVER_AFTER_SECONDS + 2) * 1000);
    expect(vonage.requests.filter(vonageCall(to))).toHaveLength(0);
  });
});

describe("the carriers' circuit breaker", () => {
  it('when Twilio refuses most recent pages, then /api/status shows it skipped until a cool-off ends, and the next page goes to Vonage first without asking Twilio', async () => {
    const refused: string[] = [];
    for (let i = 0; i < 6; i++) {
      const to = phoneNumber();
      twilio.failTo(to, { status: 503, message: 'Service Unavailable' });
      refused.push(to);
      await incidentPaging('sms', to);
      await vonage.waitFor('message', vonageSms(to), 10_000);
    }
    const session = await memberSession(stack.urls.app, stack.orm, ws.organizationId, 'MEMBER');
    const status = (await dashboard(stack.urls.app, 'GET', '/status', { session })).body.data as {
      status: string;
      problems: string[];
      carriers: Array<{ carrier: string; healthy: boolean; skipped_until: string | null }>;
    };
    const twilioHealth = status.carriers.find((c) => c.carrier === 'twilio')!;
    expect(twilioHealth.healthy).toBe(false);
    expect(Date.parse(twilioHealth.skipped_until!)).toBeGreaterThan(Date.now());
    expect(status.carriers.find((c) => c.carrier === 'vonage')).toEqual({ carrier: 'vonage', healthy: true, skipped_until: null });
    expect(status.problems).toContainEqual(expect.stringMatching(/^twilio is failing most of its recent pages: skipped until /));

    const healthy = phoneNumber();
    const before = twilio.requests.length;
    await incidentPaging('sms', healthy);
    await vonage.waitFor('message', vonageSms(healthy), 10_000);
    expect(twilio.requests.slice(before).filter(twilioTo(healthy))).toHaveLength(0);
    for (const to of refused) twilio.clearFailure(to);
  });
});

describe('a report that comes before the carrier’s answer is recorded', () => {
  it('when the report arrives first, then it is held, and the attempt recorded after takes it settled, so nothing waits for it', async () => {
    const providerMessageId = `SM${randomBytes(16).toString('hex')}`;
    const report = { providerMessageId, status: 'failed' as const, error: 'provider reported undelivered (30003)' };
    const first = await recordCarrierReport({ orm: stack.orm, temporal: stack.temporal, carrierFailover: true }, report);
    expect(first).toEqual({ pages: [], attempt: undefined });
    expect(await db()('carrier_early_reports').where({ provider_message_id: providerMessageId }).first('status')).toEqual({ status: 'failed' });

    const { incidentId } = await incidentPaging('sms');
    const page = await waitFor(async () => pageOf(incidentId), 10_000, 'a page');
    const status = await recordCarrierAttempt(db(), {
      notificationId: page.id,
      incidentId,
      carrier: 'twilio',
      channel: 'sms',
      status: 'sent',
      providerMessageId,
      error: null,
    });
    expect(status).toBe('failed');
    expect(await db()('carrier_attempts').where({ provider_message_id: providerMessageId }).first('status', 'error')).toEqual({
      status: 'failed',
      error: 'provider reported undelivered (30003)',
    });
    // Taken once: the held report is gone.
    expect(await db()('carrier_early_reports').where({ provider_message_id: providerMessageId }).first()).toBeUndefined();
  });
});
