import { randomUUID } from 'node:crypto';
import { addContactMethod } from '../../../src/services/paging/contacts';
import { addNotificationRule } from '../../../src/services/paging/notification-rules';
import { knexOf } from '../../../src/db/knex';
import { transitionIncident } from '../../../src/services/incident/incidents';
import type { TwilioFake } from '../../../src/integrations/twilio/testing/wire-fake';
import { notificationsOf, pagingService, phoneNumber, responder, startPagingStack, statusOf, trigger } from '../../support/paging';
import type { TestStack } from '../../support/stack';
import { sleep, waitFor } from '../../support/wait';
import { addMember, seedWorkspace } from '../../support/workspace';

// docs/architecture.md, "Paging": pages are at-least-once towards providers, every retry of a page whose outcome
// was unknown is marked on the timeline, and no page starts for an incident that was
// acknowledged before the send began.
let stack: TestStack;
let twilio: TwilioFake;

beforeAll(async () => {
  ({ stack, twilio } = await startPagingStack());
});

afterAll(() => Promise.all([stack?.stop(), twilio?.close()]));

const accepted = (address: string) => twilio.requests.filter((r) => r.params.To === address && r.status < 300);
const pageEntries = async (incidentId: string) =>
  knexOf(stack.orm)('timeline_entries').select('message', 'data').where({ incident_id: incidentId, type: 'notification' }).orderBy('seq');
const onePerson = (ws: { organizationId: string; serviceId: string }, userId: string) =>
  pagingService(stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: userId }] }] }, stack.urls.ingest);
const settled = (incidentId: string) =>
  waitFor(
    async () => {
      const [page] = await notificationsOf(stack.orm, incidentId);
      const [entry] = await pageEntries(incidentId);
      return page && entry && !['queued', 'sending'].includes(page.status) && { page, entry };
    },
    30_000,
    'the page settled, with its entry',
  );

describe('sending a page once, or marked', () => {
  it('when Twilio takes 6 s to answer (longer than the first attempt was once allowed), then the SMS goes once and is not marked', async () => {
    const ws = await seedWorkspace(stack.orm);
    const person = await responder(stack.orm, ws.organizationId, 'sms');
    twilio.delayTo(person.address, 6000);
    const incidentId = await trigger(await onePerson(ws, person.id));

    const { page, entry } = await settled(incidentId);
    // A retry would have reached Twilio while the first call was still waiting for its answer.
    await sleep(1500);
    expect(twilio.arrivals.filter((a) => a.to === person.address)).toHaveLength(1);
    expect(page).toMatchObject({ status: 'sent', attempts: 1, unknown_outcome_retries: 0 });
    expect(entry.message).toBe(`SMS to ${person.email} (${person.address}) sent`);
  }, 40_000);

  it('when the attempt fails after Twilio took the SMS and before the page was marked sent, then the retry sends again and the timeline marks it', async () => {
    const ws = await seedWorkspace(stack.orm);
    const person = await responder(stack.orm, ws.organizationId, 'sms');
    const k = knexOf(stack.orm);
    // The write that marks the page sent fails once for this number: the attempt dies between
    // the provider's accept and the mark, as a worker killed there would.
    // A sequence counts the marks tried (nextval is not rolled back with the failed write).
    await k.raw(`create sequence test_fail_mark_sent_tries`);
    await k.raw(`create or replace function test_fail_mark_sent() returns trigger language plpgsql as $$
      begin
        if new.status = 'sent' and old.status <> 'sent' and new.target = '${person.address}' and nextval('test_fail_mark_sent_tries') = 1 then
          raise exception 'simulated crash before the page was marked sent';
        end if;
        return new;
      end $$`);
    await k.raw(`create trigger test_fail_mark_sent before update on notifications for each row execute function test_fail_mark_sent()`);
    try {
      const incidentId = await trigger(await onePerson(ws, person.id));
      const { page, entry } = await settled(incidentId);

      expect(accepted(person.address)).toHaveLength(2);
      expect(page).toMatchObject({ status: 'sent', attempts: 2, unknown_outcome_retries: 1 });
      expect(page.provider_message_id).toBe(accepted(person.address)[1].sid);
      expect(entry.message).toBe(
        `SMS to ${person.email} (${person.address}) sent; retried: the previous attempt's outcome is unknown, so this may have been sent twice`,
      );
      expect(entry.data).toMatchObject({ kind: 'page', status: 'sent', channel: 'sms', user_id: person.id, unknown_outcome_retry: true });
      // Both SMS carry the same reply code: one answer acts on the incident, whichever is read.
      const codes = accepted(person.address).map((r) => /Reply (\d+)A/.exec(r.params.Body)?.[1]);
      expect(codes[0]).toBeDefined();
      expect(codes[1]).toBe(codes[0]);
    } finally {
      await k.raw('drop trigger if exists test_fail_mark_sent on notifications');
    }
  }, 40_000);

  it('when Twilio takes the SMS but the answer is lost, then the retry sends again and is marked; a refusal with an answer is not', async () => {
    const ws = await seedWorkspace(stack.orm);
    const other = await seedWorkspace(stack.orm);
    const lost = await responder(stack.orm, ws.organizationId, 'sms');
    const refused = await responder(stack.orm, other.organizationId, 'sms');
    twilio.dropResponsesTo(lost.address, 1);
    twilio.failTo(refused.address, { status: 503, message: 'Service Unavailable' });
    const lostIncident = await trigger(await onePerson(ws, lost.id));
    const refusedIncident = await trigger(await onePerson(other, refused.id));
    await waitFor(async () => twilio.requests.some((r) => r.params.To === refused.address && r.status === 503), 20_000, 'the refusal');
    twilio.clearFailure(refused.address);

    const lostPage = await settled(lostIncident);
    expect(accepted(lost.address)).toHaveLength(2);
    expect(lostPage.page).toMatchObject({ status: 'sent', unknown_outcome_retries: 1 });
    expect(lostPage.entry.data.unknown_outcome_retry).toBe(true);

    const refusedPage = await settled(refusedIncident);
    expect(accepted(refused.address)).toHaveLength(1);
    expect(refusedPage.page).toMatchObject({ status: 'sent', unknown_outcome_retries: 0 });
    expect(refusedPage.page.attempts).toBeGreaterThanOrEqual(2);
    expect(refusedPage.entry.message).toBe(`SMS to ${refused.email} (${refused.address}) sent`);
  }, 40_000);

  it('when an acknowledge commits while a page is on its way to the provider, then the page is not sent and the timeline says why', async () => {
    const ws = await seedWorkspace(stack.orm);
    const person = await responder(stack.orm, ws.organizationId, 'sms');
    const k = knexOf(stack.orm);
    // Holds the number's reply-code cursor: the page's attempt waits on it after it has read the
    // incident, until the acknowledge below has committed.
    const blocker = await k.transaction();
    try {
      await blocker.raw(
        `insert into reply_code_cursors (target, last_code) values (?, 1) on conflict (target) do update set last_code = reply_code_cursors.last_code`,
        [person.address],
      );
      const incidentId = await trigger(await onePerson(ws, person.id));
      await waitFor(
        async () =>
          (await k.raw(`select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like '%reply_code_cursors%' and pid <> pg_backend_pid()`)).rows
            .length > 0,
        20_000,
        'the page waiting on its reply code',
      );
      const acked = transitionIncident(
        { orm: stack.orm, temporal: stack.temporal, taskQueue: stack.taskQueue },
        { organizationId: ws.organizationId, incidentId, operation: 'acknowledge', actor: { type: 'user', id: person.id, via: 'api' } },
      );
      await waitFor(async () => (await statusOf(stack.orm, incidentId)) === 'ACKNOWLEDGED', 40_000, 'the acknowledge committed');
      await blocker.commit();
      await acked;

      const { page, entry } = await settled(incidentId);
      expect(twilio.arrivals.filter((a) => a.to === person.address)).toHaveLength(0);
      expect(page).toMatchObject({ status: 'skipped', attempts: 0 });
      expect(entry.message).toBe(`SMS to ${person.email} (${person.address}) not sent: incident is ACKNOWLEDGED`);
      expect(entry.data).toMatchObject({ kind: 'page', status: 'skipped', error: 'incident is ACKNOWLEDGED' });
    } finally {
      if (!blocker.isCompleted()) await blocker.rollback();
    }
  }, 60_000);

  it('when five calls to one person go out at once with room for two in the voice quota, then exactly two are calls and three go by email saying why', async () => {
    const ws = await seedWorkspace(stack.orm); // PRO: 100 voice calls per user per month
    const person = await addMember(stack.orm, ws.organizationId, 'MEMBER');
    const numbers = Array.from({ length: 5 }, () => phoneNumber());
    for (const address of numbers) {
      const contact = await addContactMethod(stack.orm, { email: person.email, type: 'voice', address });
      await addNotificationRule(stack.orm, { email: person.email, contactMethodId: contact.id, delaySeconds: 0 });
    }
    const now = new Date();
    const earlier = Array.from({ length: 98 }, () => ({
      id: randomUUID(),
      organization_id: ws.organizationId,
      incident_id: randomUUID(),
      user_id: person.id,
      channel: 'voice',
      target: numbers[0],
      status: 'sent',
      created_at: now,
      updated_at: now,
    }));
    await knexOf(stack.orm)('notifications').insert(earlier);
    const incidentId = await trigger(await onePerson(ws, person.id));

    const pages = await waitFor(
      async () => {
        const rows = await notificationsOf(stack.orm, incidentId);
        return rows.length === 5 && rows.every((r) => r.status === 'sent') && rows;
      },
      30_000,
      'five pages sent',
    );
    await sleep(500);
    expect(pages.filter((p) => p.channel === 'voice')).toHaveLength(2);
    expect(twilio.calls().filter((c) => numbers.includes(c.params.To))).toHaveLength(2);
    const emails = pages.filter((p) => p.channel === 'email');
    expect(emails).toHaveLength(3);
    for (const p of emails)
      expect(p).toMatchObject({
        target: person.email,
        fallback_reason: 'voice call quota of the PRO plan reached (100 per user per month); sent by email instead',
      });
    const entries = (await pageEntries(incidentId)).map((e) => e.message);
    expect(entries.filter((m) => m.startsWith('Email to') && m.includes('quota of the PRO plan reached'))).toHaveLength(3);
  }, 40_000);
});
