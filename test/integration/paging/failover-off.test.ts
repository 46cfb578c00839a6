import { knexOf } from '../../../src/db/knex';
import type { TwilioFake } from '../../../src/integrations/twilio/testing/wire-fake';
import type { VonageFake } from '../../../src/integrations/vonage/testing/wire-fake';
import { notificationsOf, pagingService, phoneNumber, responder, startPagingStack, vonageAccount, trigger } from '../../support/paging';
import type { TestStack } from '../../support/stack';
import { sleep, waitFor } from '../../support/wait';
import { seedWorkspace } from '../../support/workspace';

// docs/reliability.md, "Carriers": without FAILOVER_ON_REPORTS (the default) a refusal still goes
// to the next carrier at once, inside the send, while a failed or missing report changes nothing:
// the incident's workflow takes no step it did not take before failover existed.
let stack: TestStack;
let twilio: TwilioFake;
let vonage: VonageFake;

beforeAll(async () => {
  let vonageEnv: Record<string, string>;
  ({ fake: vonage, env: vonageEnv } = await vonageAccount());
  ({ stack, twilio } = await startPagingStack({
    ...vonageEnv,
    FAILOVER_AFTER_SECONDS: '1',
  }));
});
afterAll(() => Promise.all([stack?.stop(), twilio?.close(), vonage?.close()]));

async function paged(to: string) {
  const ws = await seedWorkspace(stack.orm);
  const person = await responder(stack.orm, ws.organizationId, 'sms', to);
  const ingestUrl = await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: person.id }] }] }, stack.urls.ingest);
  return trigger(ingestUrl);
}
const vonageTo = (to: string) => vonage.requests.filter((m) => m.body.to === to.slice(1));

describe('failover on reports turned off (the default)', () => {
  it('when Twilio refuses the SMS, then Vonage takes it at once all the same', async () => {
    const to = phoneNumber();
    twilio.failTo(to, { status: 500, message: 'Internal Server Error' });
    const incidentId = await paged(to);
    await vonage.waitFor('message', (m) => m.body.to === to.slice(1), 10_000);
    await waitFor(async () => (await notificationsOf(stack.orm, incidentId))[0]?.provider === 'vonage', 10_000, 'the page sent via Vonage');
  });

  it('when Twilio reports the SMS undelivered, then the page shows failed and no other carrier is tried', async () => {
    const to = phoneNumber();
    const incidentId = await paged(to);
    const sms = await twilio.waitFor('message', (m) => m.params.To === to);
    await waitFor(async () => (await notificationsOf(stack.orm, incidentId))[0]?.provider_message_id === sms.sid, 10_000, 'the page sent');
    await twilio.callBackTo(`${stack.urls.app}/hooks/twilio/status`, { MessageSid: sms.sid!, MessageStatus: 'undelivered', ErrorCode: '30003' });
    await sleep(3000);
    expect(vonageTo(to)).toHaveLength(0);
    expect((await knexOf(stack.orm)('notifications').where({ incident_id: incidentId }).first('status')).status).toBe('failed');
  });
});
