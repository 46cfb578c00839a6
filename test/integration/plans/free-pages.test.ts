import { randomBytes } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { addContactMethod } from '../../../src/services/paging/contacts';
import { addNotificationRule } from '../../../src/services/paging/notification-rules';
import { setPlan } from '../../../src/services/workspace/workspaces';
import type { TwilioFake } from '../../../src/integrations/twilio/testing/wire-fake';
import { notificationsOf, pagingService, phoneNumber, startPagingStack, timelineOf, trigger } from '../../support/paging';
import type { TestStack } from '../../support/stack';
import { sleep, waitFor } from '../../support/wait';
import { addMember, seedWorkspace } from '../../support/workspace';

let stack: TestStack;
let twilio: TwilioFake;
beforeAll(async () => {
  ({ stack, twilio } = await startPagingStack());
});
afterAll(() => Promise.all([stack?.stop(), twilio?.close()]));

/** An on-call person paged at once on an iPhone and by SMS. */
async function pushAndSmsResponder(organizationId: string) {
  const user = await addMember(stack.orm, organizationId, 'MEMBER');
  const phone = phoneNumber();
  const device = randomBytes(32).toString('hex');
  for (const [type, address] of [
    ['push_ios', device],
    ['sms', phone],
  ] as const) {
    const contact = await addContactMethod(stack.orm, { email: user.email, type, address });
    await addNotificationRule(stack.orm, { email: user.email, contactMethodId: contact.id, delaySeconds: 0 });
  }
  return { ...user, phone, device };
}

const pageEntries = async (incidentId: string) =>
  (await timelineOf(stack.orm, incidentId)).filter((e) => e.type === 'notification').map((e) => e.message as string);

describe('FREE pages by email only', () => {
  it('when a FREE workspace pages an on-call person with push and SMS rules, then both pages go by email and the timeline says it is the plan', async () => {
    const ws = await seedWorkspace(stack.orm);
    await setPlan(stack.orm, ws.organizationId, 'FREE');
    const person = await pushAndSmsResponder(ws.organizationId);
    const incidentId = await trigger(
      await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: person.id }] }] }, stack.urls.ingest),
    );

    const entries = await waitFor(
      async () => {
        const got = await pageEntries(incidentId);
        return got.length === 2 ? got : undefined;
      },
      20_000,
      'both pages on the timeline',
    );
    expect(entries).toEqual([
      `Email to ${person.email} (${person.email}) stored in the dev inbox (the FREE plan pages by email only; sent by email instead)`,
      `Email to ${person.email} (${person.email}) stored in the dev inbox (the FREE plan pages by email only; sent by email instead)`,
    ]);
    const pages = await notificationsOf(stack.orm, incidentId);
    expect(pages.map((p) => [p.channel, p.target, p.status, p.fallback_reason])).toEqual([
      ['email', person.email, 'sent', 'the FREE plan pages by email only; sent by email instead'],
      ['email', person.email, 'sent', 'the FREE plan pages by email only; sent by email instead'],
    ]);
    const delivered = await knexOf(stack.orm)('dev_deliveries').select('channel', 'to').whereIn('to', [person.email, person.phone, person.device]);
    expect(delivered.map((d: { channel: string }) => d.channel)).toEqual(['email', 'email']);
    await sleep(500);
    expect(twilio.requests.filter((r) => r.params.To === person.phone)).toHaveLength(0);
  });

  it('when the same person is on a STARTER workspace, then push and SMS go as asked', async () => {
    const ws = await seedWorkspace(stack.orm);
    await setPlan(stack.orm, ws.organizationId, 'STARTER');
    const person = await pushAndSmsResponder(ws.organizationId);
    const incidentId = await trigger(
      await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: person.id }] }] }, stack.urls.ingest),
    );

    await twilio.waitFor('message', (m) => m.params.To === person.phone);
    const pages = await waitFor(
      async () => {
        const got = await notificationsOf(stack.orm, incidentId);
        return got.length === 2 && got.every((p) => p.status === 'sent') ? got : undefined;
      },
      20_000,
      'both pages sent',
    );
    expect(pages.map((p) => [p.channel, p.fallback_reason]).sort()).toEqual([
      ['push_ios', null],
      ['sms', null],
    ]);
  });
});
