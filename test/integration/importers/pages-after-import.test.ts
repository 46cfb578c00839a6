import { randomUUID } from 'node:crypto';
import type { ReadinessGap } from '../../../src/domain/paging/readiness';
import { knexOf } from '../../../src/db/knex';
import { onCall } from '../../../src/services/paging';
import type { TwilioFake } from '../../../src/integrations/twilio/testing/wire-fake';
import { fixtureAccount, startPagerDutyApi, type PagerDutyApiFake } from '../../../src/integrations/pagerduty/testing/wire-fake';
import { dashboard, memberSession, type DashboardSession } from '../../support/dashboard';
import { request } from '../../support/http';
import { importWorkspace, mappedId, runImport } from '../../support/importers';
import { notificationsOf, phoneNumber, startPagingStack, timelineOf } from '../../support/paging';
import type { TestStack } from '../../support/stack';
import { waitFor } from '../../support/wait';

// The point of an import (docs/importers.md): the first alert after it pages whom PagerDuty would
// have paged, on the phone PagerDuty had. A PagerDuty account is imported into a workspace where
// nobody of it is a member yet; an alert to the imported Events API v2 key goes through the real
// ingest listener, the incident workflow and Twilio's wire fake. Readiness shows the imported
// numbers as not yet confirmed until a page or a drill reaches them.

let stack: TestStack;
let twilio: TwilioFake;
let pd: PagerDutyApiFake;
let organizationId: string;
let admin: DashboardSession;

/** The account with numbers and keys of its own: reply codes are per number, routing keys unique. */
function account() {
  const a = fixtureAccount();
  for (const user of a.users) {
    const number = phoneNumber().slice(2); // +1 and ten digits: PagerDuty keeps the country code apart.
    for (const m of user.contact_methods) if (m.country_code === 1) m.address = number;
  }
  for (const service of a.services) for (const i of service.integrations) if (i.integration_key) i.integration_key = randomUUID().replace(/-/g, '');
  return a;
}

/** The number PagerDuty had for a person's SMS, as E.164. */
const smsNumberOf = (userExt: string) => {
  const sms = pd.account.users.find((u) => u.id === userExt)!.contact_methods.find((m: { type: string }) => m.type === 'sms_contact_method');
  return `+${sms.country_code}${sms.address}`;
};

beforeAll(async () => {
  ({ stack, twilio } = await startPagingStack());
  pd = await startPagerDutyApi({ account: account() });
  ({ organizationId } = await importWorkspace(stack.orm, { members: [] }));
  admin = await memberSession(stack.urls.app, stack.orm, organizationId, 'ACCOUNT_ADMIN');
});
afterAll(() => Promise.all([stack?.stop(), twilio?.close(), pd?.stop()]));

const readiness = async (): Promise<ReadinessGap[]> => {
  const res = await dashboard(stack.urls.app, 'GET', '/readiness', { session: admin });
  expect(res.status).toBe(200);
  return res.body.data.gaps;
};

describe('paging after an import', () => {
  it('when an alert reaches the imported integration key, then the person on call in PagerDuty is texted at the number PagerDuty had', async () => {
    const report = await runImport(stack.orm, 'pagerduty', { url: pd.url, credential: pd.token }, { organizationId });
    expect(report.created).toMatchObject({ user: 6, schedule: 2, escalation_policy: 2, source: 2 });

    // Checkout API pages Payments EP, whose first step is the Payments Nights schedule.
    const scheduleId = mappedId(report, 'schedule', 'PSCH002');
    const [onCallNow] = (await onCall(stack.orm, { scheduleId, at: new Date() })).users;
    const person = report.mapping.find((m) => m.kind === 'user' && m.id === onCallNow.id)!;
    const number = smsNumberOf(person.external_id);

    // Before any page, readiness says their imported numbers are not confirmed yet.
    const before = (await readiness()).filter((g) => g.kind === 'imported_unconfirmed' && g.user_id === onCallNow.id);
    expect(before.length).toBeGreaterThan(0);
    expect(before[0].detail).toMatch(/imported, not yet confirmed in Klaxon/);
    expect(before[0].detail).toContain(`sms ${number}`);

    const routingKey = pd.account.services.find((s) => s.id === 'PSVC001')!.integrations.find((i: { id: string }) => i.id === 'PINT001').integration_key;
    const sent = await request('POST', `${stack.urls.ingest}/v2/enqueue`, {
      body: {
        routing_key: routingKey,
        event_action: 'trigger',
        dedup_key: 'checkout-5xx',
        payload: { summary: 'Checkout 5xx', source: 'web-1', severity: 'critical' },
      },
    });
    expect(sent.status).toBe(202);

    const sms = await twilio.waitFor('message', (m) => m.params.To === number);
    expect(sms.params.Body).toContain('Checkout 5xx');
    const incident = await knexOf(stack.orm)('incidents').where({ organization_id: organizationId, dedup_key: 'checkout-5xx' }).first();
    expect(incident.service_id).toBe(mappedId(report, 'service', 'PSVC001'));
    await waitFor(async () => (await notificationsOf(stack.orm, incident.id)).some((n) => n.status === 'sent'), 15_000, 'the page recorded');
    const pages = await notificationsOf(stack.orm, incident.id);
    expect(pages.map((p) => [p.channel, p.target, p.user_id])).toContainEqual(['sms', number, onCallNow.id]);
    // Nobody else, and never the workspace's admin: the first step is the schedule alone.
    expect(new Set(pages.map((p) => p.user_id))).toEqual(new Set([onCallNow.id]));
    const decision = (await timelineOf(stack.orm, incident.id)).find((e) => e.type === 'paging_decision');
    expect(decision?.message).toContain('Payments Nights');

    // The page reached the SMS number: readiness no longer lists it as unconfirmed.
    await waitFor(
      async () => !(await readiness()).some((g) => g.kind === 'imported_unconfirmed' && g.user_id === onCallNow.id && g.detail.includes(`sms ${number}`)),
      10_000,
      'the SMS number confirmed',
    );
  }, 60_000);

  it('when a drill reaches every imported method of a person, then readiness says nothing more about them', async () => {
    const [someone] = (await readiness()).filter((g) => g.kind === 'imported_unconfirmed');
    expect(someone).toBeDefined();
    const drill = await dashboard(stack.urls.app, 'POST', '/drills', { session: admin, body: { target: { type: 'user', id: someone.user_id } } });
    expect(drill.status).toBe(201);
    await waitFor(
      async () => {
        const res = await dashboard(stack.urls.app, 'GET', `/drills/${drill.body.data.id}`, { session: admin });
        return res.body.data.results.every((r: { status: string }) => r.status !== 'pending');
      },
      20_000,
      'the drill settled',
    );
    expect((await readiness()).filter((g) => g.kind === 'imported_unconfirmed' && g.user_id === someone.user_id)).toEqual([]);
  }, 40_000);
});
