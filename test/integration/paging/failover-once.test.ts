import { knexOf } from '../../../src/db/knex';
import type { TwilioFake } from '../../../src/integrations/twilio/testing/wire-fake';
import type { VonageFake } from '../../../src/integrations/vonage/testing/wire-fake';
import { pagingService, responder, startPagingStack, vonageAccount, trigger } from '../../support/paging';
import type { TestStack } from '../../support/stack';
import { waitFor } from '../../support/wait';
import { seedWorkspace } from '../../support/workspace';

// docs/reliability.md, "Carriers", with docs/architecture.md, "Paging": a page is sent at least
// once, and a send that may have doubled it is marked on the timeline, also when it is the send
// to the next carrier of a failover (found by the fault suite: two Vonage SMS for one page, the
// second a retry after the first's outcome was unknown, under an unmarked failover line).
let stack: TestStack;
let twilio: TwilioFake;
let vonage: VonageFake;

beforeAll(async () => {
  let vonageEnv: Record<string, string>;
  ({ fake: vonage, env: vonageEnv } = await vonageAccount());
  ({ stack, twilio } = await startPagingStack({
    ...vonageEnv,
    // Twilio first for every number; a page Twilio never confirms goes to Vonage after 1 s.
    FAILOVER_AFTER_SECONDS: '1',
    FAILOVER_ON_REPORTS: 'true',
  }));
});

afterAll(() => Promise.all([stack?.stop(), twilio?.close(), vonage?.close()]));

describe('a failover sent once, or marked', () => {
  it('when the send to Vonage fails after Vonage took the SMS and before the page was marked sent, then the retry sends again and the failover line marks it', async () => {
    const ws = await seedWorkspace(stack.orm);
    const person = await responder(stack.orm, ws.organizationId, 'sms');
    const k = knexOf(stack.orm);
    // The write that marks the page sent through Vonage fails once for this number: the failover's
    // send dies between Vonage's accept and the mark, as a worker killed there would.
    await k.raw(`create sequence test_fail_failover_mark_tries`);
    await k.raw(`create or replace function test_fail_failover_mark() returns trigger language plpgsql as $$
      begin
        if new.status = 'sent' and new.provider = 'vonage' and new.target = '${person.address}' and nextval('test_fail_failover_mark_tries') = 1 then
          raise exception 'simulated crash before the failover was marked sent';
        end if;
        return new;
      end $$`);
    await k.raw(`create trigger test_fail_failover_mark before update on notifications for each row execute function test_fail_failover_mark()`);
    try {
      const ingestUrl = await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: person.id }] }] }, stack.urls.ingest);
      const incidentId = await trigger(ingestUrl);
      // Twilio takes it and never reports: unconfirmed after 1 s, it goes to Vonage.
      const line = await waitFor(
        () =>
          k('timeline_entries')
            .select('message', 'data')
            .where({ incident_id: incidentId, type: 'notification' })
            .whereRaw(`data->>'kind' = 'failover'`)
            .first(),
        30_000,
        'the failover line',
      );
      const digits = person.address.slice(1);
      expect(twilio.messages().filter((m) => m.params.To === person.address)).toHaveLength(1);
      expect(vonage.messages().filter((m) => m.body.to === digits)).toHaveLength(2);
      const [page] = await k('notifications').select('status', 'provider', 'unknown_outcome_retries').where({ incident_id: incidentId });
      expect(page).toMatchObject({ status: 'sent', provider: 'vonage', unknown_outcome_retries: 1 });
      expect(line.message).toMatch(/^SMS via Twilio unconfirmed \(not confirmed within 1 s\) → sent via Vonage/);
      expect(line.message).toContain(
        `page to ${person.email} (${person.address}); retried: the previous attempt's outcome is unknown, so this may have been sent twice`,
      );
      expect(line.data).toMatchObject({ kind: 'failover', target: person.address, unknown_outcome_retry: true });
    } finally {
      await k.raw('drop trigger if exists test_fail_failover_mark on notifications');
    }
  }, 60_000);
});
