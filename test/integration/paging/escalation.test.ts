import { createSchedule } from '../../../src/services/paging/schedules';
import { listInAppNotifications, markInAppNotificationsRead, unreadCount } from '../../../src/services/paging/in-app-notifications';
import type { TwilioFake } from '../../../src/integrations/twilio/testing/wire-fake';
import { notificationsOf, pagingService, responder, statusOf, timelineOf, trigger, startPagingStack } from '../../support/paging';
import type { TestStack } from '../../support/stack';
import { seedWorkspace } from '../../support/workspace';
import { sleep } from '../../support/wait';

let stack: TestStack;
let twilio: TwilioFake;

beforeAll(async () => {
  ({ stack, twilio } = await startPagingStack());
});

afterAll(() => Promise.all([stack?.stop(), twilio?.close()]));

const gatherUrl = (twiml: string) => /action="([^"]+)"/.exec(twiml)![1].replace(/&amp;/g, '&');

describe('escalation end to end', () => {
  it('when nobody answers the step 1 SMS, then step 2 calls whoever is on call, and key 1 acknowledges and stops paging', async () => {
    const ws = await seedWorkspace(stack.orm);
    const first = await responder(stack.orm, ws.organizationId, 'sms');
    const onCall = await responder(stack.orm, ws.organizationId, 'voice');
    const schedule = await createSchedule(stack.orm, {
      organizationId: ws.organizationId,
      name: 'Primary',
      timeZone: 'Europe/Berlin',
      layers: [{ users: [onCall.email], rotation: { unit: 'weeks', length: 1 }, start: '2026-01-05' }],
    });
    const ingestUrl = await pagingService(
      stack.orm,
      ws,
      {
        steps: [
          { delay_seconds: 2, targets: [{ type: 'user', id: first.id }] },
          { delay_seconds: 2, targets: [{ type: 'schedule', id: schedule.id }] },
        ],
        repeat: 3,
      },
      stack.urls.ingest,
    );
    const incidentId = await trigger(ingestUrl);

    const sms = await twilio.waitFor('message', (m) => m.params.To === first.address);
    const code = /Reply (\d+)A to acknowledge, \1R to resolve/.exec(sms.params.Body)?.[1];
    expect(code).toBeDefined();
    expect(sms.params.From).toBe('+15550000000');
    expect(sms.params.Body).toContain('Database down');

    const call = await twilio.waitFor('call', (c) => c.params.To === onCall.address);
    // Step 2 waits for step 1's delay (2 s), measured from the SMS reaching Twilio.
    expect(call.at - sms.at).toBeGreaterThanOrEqual(1500);
    expect(call.params.Twiml).toContain('Press 1 to acknowledge');

    const answer = await twilio.pressKey({ callSid: call.sid!, digits: '1', url: gatherUrl(call.params.Twiml) });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('acknowledged');
    expect(await statusOf(stack.orm, incidentId)).toBe('ACKNOWLEDGED');
    const ack = (await timelineOf(stack.orm, incidentId)).find((e) => e.to_status === 'ACKNOWLEDGED');
    expect(ack).toMatchObject({ actor_type: 'user', actor_id: onCall.id, via: 'voice' });

    // The policy repeats: without the acknowledge, step 1 would page again 2 s after step 2.
    const pagesAtAck = twilio.requests.length;
    await sleep(5000);
    expect(twilio.requests.length).toBe(pagesAtAck);

    const pages = await notificationsOf(stack.orm, incidentId);
    expect(pages.map((p) => [p.channel, p.target, p.status, p.provider])).toEqual([
      ['sms', first.address, 'sent', 'twilio'],
      ['voice', onCall.address, 'sent', 'twilio'],
    ]);
    expect(pages[0].provider_message_id).toBe(sms.sid);
    const entries = (await timelineOf(stack.orm, incidentId)).filter((e) => e.type === 'notification').map((e) => e.message);
    expect(entries).toEqual([`SMS to ${first.email} (${first.address}) sent`, `Voice call to ${onCall.email} (${onCall.address}) sent`]);

    // Each person paged has an unread in-app notification for it.
    const [inApp] = await listInAppNotifications(stack.orm, { userId: first.id });
    expect(inApp).toMatchObject({ incident_id: incidentId, read: false });
    expect(inApp.title).toContain('Database down');
    expect(await unreadCount(stack.orm, first.id)).toBe(1);
    expect(await markInAppNotificationsRead(stack.orm, { userId: first.id })).toBe(1);
    expect(await unreadCount(stack.orm, first.id)).toBe(0);
    expect(await unreadCount(stack.orm, onCall.id)).toBe(1);
    await expect(markInAppNotificationsRead(stack.orm, { userId: first.id, ids: ['nope'] })).rejects.toThrow('notification ids must be UUIDs');
  }, 40_000);

  it('when the person called presses 2, then the next step pages at once instead of after its delay', async () => {
    const ws = await seedWorkspace(stack.orm);
    const callee = await responder(stack.orm, ws.organizationId, 'voice');
    const next = await responder(stack.orm, ws.organizationId, 'sms');
    const ingestUrl = await pagingService(
      stack.orm,
      ws,
      {
        steps: [
          { delay_seconds: 600, targets: [{ type: 'user', id: callee.id }] },
          { delay_seconds: 600, targets: [{ type: 'user', id: next.id }] },
        ],
      },
      stack.urls.ingest,
    );
    const incidentId = await trigger(ingestUrl);
    const call = await twilio.waitFor('call', (c) => c.params.To === callee.address);
    const answer = await twilio.pressKey({ callSid: call.sid!, digits: '2', url: gatherUrl(call.params.Twiml) });
    expect(answer.body).toContain('Escalating');
    await twilio.waitFor('message', (m) => m.params.To === next.address, 10_000);
    expect(await statusOf(stack.orm, incidentId)).toBe('TRIGGERED');
    const bogus = await twilio.pressKey({ callSid: call.sid!, digits: '7', url: gatherUrl(call.params.Twiml) });
    expect(bogus.body).toContain('Press 1 to acknowledge or 2 to escalate');
  }, 30_000);
});
