/**
 * The carrier failover scenario of `npm run record-histories` (docs/reliability.md, "Carriers"): a
 * stack of its own with both carriers' wire fakes; Twilio takes the SMS and reports it undelivered
 * (the report's signal wakes the run), the page goes to Vonage, which reports it delivered, and the
 * failover's line is written. So the history holds the patch, the timer, the signal, the failover
 * send and both local activities of the failover.
 */
import type { WorkflowHandle } from '@temporalio/client';
import { incidentWorkflowId } from '../../src/contracts/workflows';
import { knexOf } from '../../src/db/knex';
import { request } from '../support/http';
import { notificationsOf, pagingService, responder, trigger, twilioAccount, vonageAccount } from '../support/paging';
import { startTestStack } from '../support/stack';
import { waitFor } from '../support/wait';
import { seedWorkspace } from '../support/workspace';

type History = Awaited<ReturnType<WorkflowHandle['fetchHistory']>>;

export async function recordFailoverHistory(save: (scenario: string, history: History) => void): Promise<void> {
  const twilio = await twilioAccount();
  const vonage = await vonageAccount();
  const stack = await startTestStack({ env: { ...twilio.env, ...vonage.env, FAILOVER_AFTER_SECONDS: '30', FAILOVER_ON_REPORTS: 'true' } });
  try {
    const ws = await seedWorkspace(stack.orm);
    const ann = await responder(stack.orm, ws.organizationId, 'sms');
    const ingestUrl = await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: ann.id }] }] }, stack.urls.ingest);
    const id = await trigger(ingestUrl, 'recorded carrier failover');
    const first = await twilio.fake.waitFor('message', (m) => m.params.To === ann.address);
    await waitFor(async () => (await notificationsOf(stack.orm, id))[0]?.provider_message_id === first.sid, 20_000, 'the page sent');
    await twilio.fake.callBackTo(`${stack.urls.app}/hooks/twilio/status`, { MessageSid: first.sid!, MessageStatus: 'undelivered', ErrorCode: '30003' });
    const message = await vonage.fake.waitFor('message', (m) => m.body.to === ann.address.slice(1), 20_000);
    await waitFor(async () => (await notificationsOf(stack.orm, id))[0]?.provider_message_id === message.id, 20_000, 'the failover sent');
    await vonage.fake.messageStatus(message, 'delivered');
    await waitFor(
      async () => knexOf(stack.orm)('timeline_entries').where({ incident_id: id }).whereRaw(`data->>'kind' = 'failover'`).first('id'),
      20_000,
      'the failover line',
    );
    for (const name of ['acknowledge', 'resolve', 'close']) {
      await request('POST', `${stack.urls.app}/api/v1/organizations/${ws.organizationId}/incidents/${id}/${name}`, { token: ws.tokens.readWrite });
    }
    const handle = stack.temporal.workflow.getHandle(incidentWorkflowId(id));
    await handle.result();
    save('paging-carrier-failover', await handle.fetchHistory());
  } finally {
    await stack.stop();
    await Promise.all([twilio.fake.close(), vonage.fake.close()]);
  }
}
