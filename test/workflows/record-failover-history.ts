/**
 * The carrier failover scenario of `npm run record-histories` (docs/reliability.md, "Carriers"): a
 * stack of its own with both carriers' wire fakes; Twilio takes the SMS and reports it undelivered
 * (the report's signal wakes the run), the page goes to Vonage, which reports it delivered, and the
 * failover's line is written. So the history holds the patch, the timer, the signal, the failover
 * send and both local activities of the failover.
 */
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import { incidentWorkflowId } from '../../src/contracts/workflows';
import { knexOf } from '../../src/db/knex';
import { startVonageFake } from '../../src/integrations/vonage/testing/wire-fake';
import { request } from '../support/http';
import { notificationsOf, pagingService, responder, trigger, twilioAccount } from '../support/paging';
import { startTestStack } from '../support/stack';
import { waitFor } from '../support/wait';
import { seedWorkspace } from '../support/workspace';

type History = Awaited<ReturnType<WorkflowHandle['fetchHistory']>>;

export async function recordFailoverHistory(save: (scenario: string, history: History) => void): Promise<void> {
  const vonageAccount = {
    apiKey: randomBytes(4).toString('hex'),
    apiSecret: randomBytes(8).toString('hex'),
    applicationId: randomUUID(),
    privateKey: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    signatureSecret: randomBytes(16).toString('hex'),
  };
  const twilio = await twilioAccount();
  const vonage = await startVonageFake(vonageAccount);
  const stack = await startTestStack({
    env: {
      ...twilio.env,
      VONAGE_API_KEY: vonageAccount.apiKey,
      VONAGE_API_SECRET: vonageAccount.apiSecret,
      VONAGE_APPLICATION_ID: vonageAccount.applicationId,
      VONAGE_PRIVATE_KEY: vonageAccount.privateKey,
      VONAGE_FROM: '+15550003333',
      VONAGE_SIGNATURE_SECRET: vonageAccount.signatureSecret,
      VONAGE_API_URL: vonage.url,
      FAILOVER_AFTER_SECONDS: '30',
      FAILOVER_ON_REPORTS: 'true',
    },
  });
  try {
    const ws = await seedWorkspace(stack.orm);
    const ann = await responder(stack.orm, ws.organizationId, 'sms');
    const ingestUrl = await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: ann.id }] }] }, stack.urls.ingest);
    const id = await trigger(ingestUrl, 'recorded carrier failover');
    const first = await twilio.fake.waitFor('message', (m) => m.params.To === ann.address);
    await waitFor(async () => (await notificationsOf(stack.orm, id))[0]?.provider_message_id === first.sid, 20_000, 'the page sent');
    await twilio.fake.callBackTo(`${stack.urls.app}/hooks/twilio/status`, { MessageSid: first.sid!, MessageStatus: 'undelivered', ErrorCode: '30003' });
    const message = await vonage.waitFor('message', (m) => m.body.to === ann.address.slice(1), 20_000);
    await waitFor(async () => (await notificationsOf(stack.orm, id))[0]?.provider_message_id === message.id, 20_000, 'the failover sent');
    await vonage.messageStatus(message, 'delivered');
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
    await Promise.all([twilio.fake.close(), vonage.close()]);
  }
}
