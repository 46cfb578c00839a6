import { signAction } from '../../../src/services/response/action-tokens';
import { knexOf } from '../../../src/db/knex';
import type { TwilioFake } from '../../../src/integrations/twilio/testing/wire-fake';
import { notificationsOf, pagingService, responder, statusOf, timelineOf, trigger, startPagingStack } from '../../support/paging';
import { TEST_SECRET, type TestStack } from '../../support/stack';
import { waitFor } from '../../support/wait';
import { seedWorkspace } from '../../support/workspace';

let stack: TestStack;
let twilio: TwilioFake;

beforeAll(async () => {
  ({ stack, twilio } = await startPagingStack());
});

afterAll(() => Promise.all([stack?.stop(), twilio?.close()]));

/** An incident paging one SMS responder (a long step delay: only step 1 matters here). */
async function pagedBySms() {
  const ws = await seedWorkspace(stack.orm);
  const person = await responder(stack.orm, ws.organizationId, 'sms');
  const ingestUrl = await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: person.id }] }] }, stack.urls.ingest);
  const incidentId = await trigger(ingestUrl);
  const sms = await twilio.waitFor('message', (m) => m.params.To === person.address);
  const code = /Reply (\d+)A/.exec(sms.params.Body)![1];
  return { ws, person, incidentId, code };
}

const smsHook = () => `${stack.urls.app}/hooks/twilio/sms`;

describe('answering a page from the phone', () => {
  it('when the paged person replies "<code>a" by SMS, then the incident is acknowledged by them, via sms, and the reply says so', async () => {
    const { person, incidentId, code } = await pagedBySms();
    const reply = await twilio.replySms({ from: person.address, to: '+15550000000', body: `${code}a`, url: smsHook() });
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('<Message>');
    expect(reply.body).toContain('acknowledged');
    expect(await statusOf(stack.orm, incidentId)).toBe('ACKNOWLEDGED');
    expect((await timelineOf(stack.orm, incidentId)).find((e) => e.to_status === 'ACKNOWLEDGED')).toMatchObject({ actor_id: person.id, via: 'sms' });
  });

  it('when a reply is forged (wrong signature) or replayed, then nothing changes', async () => {
    const { person, incidentId, code } = await pagedBySms();
    const forged = await twilio.replySms({ from: person.address, to: '+15550000000', body: `${code}R`, url: smsHook(), signWith: 'not-the-auth-token' });
    expect(forged.status).toBe(403);
    expect(forged.body).not.toContain('auth');
    expect(await statusOf(stack.orm, incidentId)).toBe('TRIGGERED');

    const first = await twilio.replySms({
      from: person.address,
      to: '+15550000000',
      body: `${code}A`,
      url: smsHook(),
      messageSid: 'SMreplayed0000000000000000000000' + code,
    });
    expect(first.body).toContain('acknowledged');
    // The same signed request again (Twilio signatures carry no timestamp): it must not act again.
    const before = (await timelineOf(stack.orm, incidentId)).length;
    const replay = await twilio.replySms({
      from: person.address,
      to: '+15550000000',
      body: `${code}A`,
      url: smsHook(),
      messageSid: 'SMreplayed0000000000000000000000' + code,
    });
    expect(replay.body).toContain('Already handled');
    expect((await timelineOf(stack.orm, incidentId)).length).toBe(before);
  });

  it('when a reply carries a code this number was never paged with, then it says so and changes nothing', async () => {
    const { person, incidentId } = await pagedBySms();
    const reply = await twilio.replySms({ from: person.address, to: '+15550000000', body: '98A', url: smsHook() });
    expect(reply.body).toContain('No incident was paged to this number with code 98');
    const nonsense = await twilio.replySms({ from: person.address, to: '+15550000000', body: 'hello', url: smsHook() });
    expect(nonsense.body).toContain('Reply with the code');
    expect(await statusOf(stack.orm, incidentId)).toBe('TRIGGERED');
  });

  it('when a signed email link is posted, then it acts once as the person paged; an altered or reused link changes nothing', async () => {
    const { person, incidentId } = await pagedBySms();
    const [page] = await notificationsOf(stack.orm, incidentId);
    const token = signAction(TEST_SECRET, { notificationId: page.id, action: 'resolve', expiresAt: Math.floor(Date.now() / 1000) + 60 });
    const opened = await fetch(`${stack.urls.app}/hooks/page/${token}`);
    expect(opened.status).toBe(200);
    expect(await statusOf(stack.orm, incidentId)).toBe('TRIGGERED'); // opening the link only shows a button

    const altered = await fetch(`${stack.urls.app}/hooks/page/${token.slice(0, -2)}xx`, { method: 'POST' });
    expect(altered.status).toBe(409);
    expect(await statusOf(stack.orm, incidentId)).toBe('TRIGGERED');

    const used = await fetch(`${stack.urls.app}/hooks/page/${token}`, { method: 'POST' });
    expect(used.status).toBe(200);
    expect(await statusOf(stack.orm, incidentId)).toBe('RESOLVED');
    expect((await timelineOf(stack.orm, incidentId)).find((e) => e.to_status === 'RESOLVED')).toMatchObject({ actor_id: person.id, via: 'email' });
    const again = await fetch(`${stack.urls.app}/hooks/page/${token}`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain('already used');
  });

  it('when a push action posts its token, then the incident is acknowledged via push; an expired one is refused', async () => {
    const { incidentId } = await pagedBySms();
    const [page] = await notificationsOf(stack.orm, incidentId);
    const expired = signAction(TEST_SECRET, { notificationId: page.id, action: 'acknowledge', expiresAt: Math.floor(Date.now() / 1000) - 1 });
    const refused = await fetch(`${stack.urls.app}/hooks/push/action`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: expired }),
    });
    expect(refused.status).toBe(409);
    expect(await statusOf(stack.orm, incidentId)).toBe('TRIGGERED');
    const token = signAction(TEST_SECRET, { notificationId: page.id, action: 'acknowledge', expiresAt: Math.floor(Date.now() / 1000) + 60 });
    const ok = await fetch(`${stack.urls.app}/hooks/push/action`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(ok.status).toBe(200);
    expect(await statusOf(stack.orm, incidentId)).toBe('ACKNOWLEDGED');
  });

  it('when Twilio reports delivery, then the attempt is marked delivered', async () => {
    const { incidentId } = await pagedBySms();
    const page = await waitFor(async () => (await notificationsOf(stack.orm, incidentId)).find((p) => p.status === 'sent'), 20_000, 'the sent page');
    const status = await twilio.callBackTo(`${stack.urls.app}/hooks/twilio/status`, { MessageSid: page.provider_message_id, MessageStatus: 'delivered' });
    expect(status.status).toBe(204);
    expect((await knexOf(stack.orm)('notifications').select('status').where({ id: page.id }).first()).status).toBe('delivered');
  });
});
