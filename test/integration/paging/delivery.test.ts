import { knexOf } from '../../../src/db/knex';
import { transitionIncident } from '../../../src/services/incident/incidents';
import type { TwilioFake } from '../../../src/integrations/twilio/testing/wire-fake';
import { notificationsOf, pagingService, responder, statusOf, timelineOf, trigger, startPagingStack } from '../../support/paging';
import type { TestStack } from '../../support/stack';
import { sleep, waitFor } from '../../support/wait';
import { seedWorkspace } from '../../support/workspace';

let stack: TestStack;
let twilio: TwilioFake;

beforeAll(async () => {
  ({ stack, twilio } = await startPagingStack());
});

afterAll(() => Promise.all([stack?.stop(), twilio?.close()]));

const to = (address: string) => twilio.requests.filter((r) => r.params.To === address);
const deps = () => ({ orm: stack.orm, temporal: stack.temporal, taskQueue: stack.taskQueue });
const notifications = async (incidentId: string) => (await timelineOf(stack.orm, incidentId)).filter((e) => e.type === 'notification').map((e) => e.message);

describe('delivering pages', () => {
  it('when Twilio refuses a number as invalid, then the page is not retried, the timeline says why and the number is disabled', async () => {
    const ws = await seedWorkspace(stack.orm);
    const person = await responder(stack.orm, ws.organizationId, 'sms');
    twilio.failTo(person.address, { code: 21211, status: 400 });
    const incidentId = await trigger(
      await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: person.id }] }] }, stack.urls.ingest),
    );
    const [entry] = await waitFor(async () => (await notifications(incidentId)).length > 0 && notifications(incidentId), 20_000, 'the failure on the timeline');
    expect(entry).toMatch(new RegExp(`^SMS to ${person.email} \\(\\${person.address}\\) failed: .*not a valid phone number`));
    await sleep(2500); // a retry would come after 1 s
    expect(to(person.address)).toHaveLength(1);
    const [page] = await notificationsOf(stack.orm, incidentId);
    expect(page).toMatchObject({ status: 'failed', channel: 'sms' });
    const contact = await knexOf(stack.orm)('contact_methods').where({ id: person.contactId }).first();
    expect(contact.disabled_at).not.toBeNull();
  });

  it('when Twilio fails with a 500, then the page is retried with backoff until it goes', async () => {
    const ws = await seedWorkspace(stack.orm);
    const person = await responder(stack.orm, ws.organizationId, 'sms');
    twilio.failTo(person.address, { status: 500, message: 'Internal Server Error' });
    const incidentId = await trigger(
      await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: person.id }] }] }, stack.urls.ingest),
    );
    await waitFor(async () => to(person.address).length >= 1, 20_000, 'a failed attempt');
    twilio.clearFailure(person.address);
    await twilio.waitFor('message', (m) => m.params.To === person.address, 15_000);
    const attempts = to(person.address);
    expect(attempts.filter((a) => a.status === 500).length).toBeGreaterThanOrEqual(1);
    expect(attempts.filter((a) => a.status === 201)).toHaveLength(1);
    await waitFor(async () => (await notifications(incidentId)).some((m) => m.endsWith('sent')), 20_000, 'the sent entry');
    expect((await notificationsOf(stack.orm, incidentId))[0]).toMatchObject({ status: 'sent' });
  });

  it('when the plan has no SMS quota, then the page goes by email instead and the timeline says why', async () => {
    const ws = await seedWorkspace(stack.orm);
    await knexOf(stack.orm)('organizations').where({ id: ws.organizationId }).update({ plan: 'STARTER' }); // STARTER has no API tokens to seed
    const person = await responder(stack.orm, ws.organizationId, 'voice'); // STARTER: no voice calls
    const incidentId = await trigger(
      await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: person.id }] }] }, stack.urls.ingest),
    );
    const [entry] = await waitFor(async () => (await notifications(incidentId)).length > 0 && notifications(incidentId), 20_000, 'the page on the timeline');
    expect(entry).toBe(
      `Email to ${person.email} (${person.email}) stored in the dev inbox (the STARTER plan includes no voice call pages; sent by email instead)`,
    );
    expect(to(person.address)).toHaveLength(0);
    const [page] = await notificationsOf(stack.orm, incidentId);
    expect(page).toMatchObject({ channel: 'email', target: person.email, provider: 'dev_inbox', status: 'sent' });
    expect(page.fallback_reason).toContain('includes no voice call pages');
  });

  it('when an acknowledgement times out, then the incident re-triggers and escalation starts again at step 1', async () => {
    const ws = await seedWorkspace(stack.orm);
    const person = await responder(stack.orm, ws.organizationId, 'sms');
    const incidentId = await trigger(
      await pagingService(
        stack.orm,
        ws,
        { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: person.id }] }], ackTimeoutSeconds: 2 },
        stack.urls.ingest,
      ),
    );
    await twilio.waitFor('message', (m) => m.params.To === person.address);
    await transitionIncident(deps(), {
      organizationId: ws.organizationId,
      incidentId,
      operation: 'acknowledge',
      actor: { type: 'user', id: person.id, via: 'api' },
    });
    await waitFor(async () => (await statusOf(stack.orm, incidentId)) === 'TRIGGERED', 20_000, 'the re-trigger');
    await waitFor(async () => to(person.address).length === 2, 20_000, 'step 1 paging again');
    const moves = (await timelineOf(stack.orm, incidentId)).filter((e) => e.to_status).map((e) => [e.to_status, e.via]);
    expect(moves).toEqual([
      ['TRIGGERED', 'ingest'],
      ['ACKNOWLEDGED', 'api'],
      ['TRIGGERED', 'ack_timeout'],
    ]);
  });

  it('when the worker is stopped mid-escalation, then the next step still pages once it is back, late by no more than the gap', async () => {
    const ws = await seedWorkspace(stack.orm);
    const first = await responder(stack.orm, ws.organizationId, 'sms');
    const second = await responder(stack.orm, ws.organizationId, 'sms');
    await trigger(
      await pagingService(
        stack.orm,
        ws,
        {
          steps: [
            { delay_seconds: 2, targets: [{ type: 'user', id: first.id }] },
            { delay_seconds: 600, targets: [{ type: 'user', id: second.id }] },
          ],
        },
        stack.urls.ingest,
      ),
    );
    const firstSms = await twilio.waitFor('message', (m) => m.params.To === first.address);
    await stack.worker.stop();
    await sleep(4000); // step 2 falls due while no worker runs
    expect(to(second.address)).toHaveLength(0);
    const restartedAt = Date.now();
    await stack.worker.start();
    const secondSms = await twilio.waitFor('message', (m) => m.params.To === second.address, 15_000);
    expect(secondSms.at - firstSms.at).toBeGreaterThanOrEqual(2000);
    expect(secondSms.at - restartedAt).toBeLessThan(5000);
  }, 40_000);
});
