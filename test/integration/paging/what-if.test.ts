import { knexOf } from '../../../src/db/knex';
import { createSchedule } from '../../../src/services/paging/schedules';
import type { TwilioFake } from '../../../src/integrations/twilio/testing/wire-fake';
import { dashboard, expectDashboardError, memberSession } from '../../support/dashboard';
import { notificationsOf, pagingService, responder, startPagingStack, trigger } from '../../support/paging';
import type { TestStack } from '../../support/stack';
import { waitFor } from '../../support/wait';
import { seedWorkspace, rowCount } from '../../support/workspace';

// docs/what-if.md: a policy replayed on a service's real incidents, beside what really paged.
let stack: TestStack;
let twilio: TwilioFake;

beforeAll(async () => {
  ({ stack, twilio } = await startPagingStack());
});

afterAll(() => Promise.all([stack?.stop(), twilio?.close()]));

const STEP_2_AFTER_S = 4;

/**
 * A service whose live policy pages the schedule's on-call person (A) at once and B four seconds
 * later; incident `full` runs the whole policy, incident `acked` is acknowledged after A's page.
 */
async function pagedHistory() {
  const ws = await seedWorkspace(stack.orm);
  const a = await responder(stack.orm, ws.organizationId, 'sms');
  const b = await responder(stack.orm, ws.organizationId, 'sms');
  const c = await responder(stack.orm, ws.organizationId, 'sms');
  const schedule = await createSchedule(stack.orm, {
    organizationId: ws.organizationId,
    name: 'Primary',
    timeZone: 'UTC',
    layers: [{ users: [a.email], rotation: { unit: 'weeks', length: 1 }, start: '2020-01-06' }],
  });
  const steps = [
    { delay_seconds: STEP_2_AFTER_S, targets: [{ type: 'schedule' as const, id: schedule.id }] },
    { delay_seconds: 60, targets: [{ type: 'user' as const, id: b.id }] },
  ];
  const ingestUrl = await pagingService(stack.orm, ws, { steps }, stack.urls.ingest);
  const session = await memberSession(stack.urls.app, stack.orm, ws.organizationId, 'MEMBER');
  const from = new Date(Date.now() - 60_000).toISOString();

  const full = await trigger(ingestUrl, 'full run');
  const acked = await trigger(ingestUrl, 'acked after step 1');
  await twilio.waitFor('message', (m) => m.params.To === a.address && m.params.Body.includes('acked after step 1'));
  const ack = await dashboard(stack.urls.app, 'POST', `/incidents/${acked}/acknowledge`, { session });
  expect(ack.status).toBe(200);
  await twilio.waitFor('message', (m) => m.params.To === b.address && m.params.Body.includes('full run'));
  await waitFor(async () => (await notificationsOf(stack.orm, full)).length === 2, 20_000, 'both pages of the full run recorded');
  const policyId = (await knexOf(stack.orm)('services').select('escalation_policy_id').where({ id: ws.serviceId }).first()).escalation_policy_id;
  return { ws, a, b, c, schedule, steps, session, from, full, acked, policyId };
}

const simulate = (h: Awaited<ReturnType<typeof pagedHistory>>, body: Record<string, unknown>) =>
  dashboard(stack.urls.app, 'POST', '/escalation-policies/simulate', {
    session: h.session,
    body: { service_id: h.ws.serviceId, from: h.from, to: new Date(Date.now() + 60_000).toISOString(), ...body },
  });

const people = (pages: Array<{ user_id: string; channel: string }>) => pages.map((p) => `${p.user_id}:${p.channel}`).sort();

describe('what-if: POST /api/escalation-policies/simulate', () => {
  let h: Awaited<ReturnType<typeof pagedHistory>>;
  beforeAll(async () => {
    h = await pagedHistory();
  }, 90_000);

  it('when the live policy is replayed, then each incident would page exactly who it paged, on the same channels', async () => {
    const res = await simulate(h, { policy_id: h.policyId });

    expect(res.status).toBe(200);
    const byId = new Map(res.body.data.incidents.map((i: { incident_id: string }) => [i.incident_id, i]));
    expect([...byId.keys()].sort()).toEqual([h.full, h.acked].sort());
    for (const id of [h.full, h.acked]) {
      const incident = byId.get(id) as {
        would_page: Array<{ user_id: string; channel: string }>;
        actually_paged: Array<{ user_id: string; channel: string }>;
        differs: boolean;
      };
      expect(people(incident.would_page)).toEqual(people(incident.actually_paged));
      expect(incident.differs).toBe(false);
    }
    const full = byId.get(h.full) as { would_page: Array<{ user_id: string; at: string }>; opened_at: string };
    expect(people(full.would_page as never)).toEqual([`${h.a.id}:sms`, `${h.b.id}:sms`].sort());
    // Step 2 is replayed at the policy's delay after the incident opened.
    const bAt = full.would_page.find((p) => p.user_id === h.b.id)!.at;
    expect(new Date(bAt).getTime() - new Date(full.opened_at).getTime()).toBe(STEP_2_AFTER_S * 1000);
    const acked = byId.get(h.acked) as { would_page: Array<{ user_id: string }>; ended_at: string | null };
    expect(acked.would_page.map((p) => p.user_id)).toEqual([h.a.id]);
    expect(acked.ended_at).not.toBeNull();
    const totals = new Map(res.body.data.totals.map((t: { user_id: string }) => [t.user_id, t]));
    expect(totals.get(h.a.id)).toMatchObject({ would_pages: 2, actual_pages: 2 });
    expect(totals.get(h.b.id)).toMatchObject({ would_pages: 1, actual_pages: 1 });
  });

  it('when a draft pages someone else at step 1, then the differences are flagged per incident and counted per person, and nothing is saved', async () => {
    const policiesBefore = await rowCount(stack.orm, 'escalation_policies');
    const draft = { steps: [{ delay_seconds: 60, targets: [{ type: 'user', id: h.c.id }] }], repeat: 0 };

    const res = await simulate(h, { policy: draft });

    expect(res.status).toBe(200);
    expect(res.body.data.policy).toEqual({ id: null, name: 'Draft' });
    for (const incident of res.body.data.incidents) {
      expect(people(incident.would_page)).toEqual([`${h.c.id}:sms`]);
      expect(incident.differs).toBe(true);
    }
    const totals = new Map(res.body.data.totals.map((t: { user_id: string }) => [t.user_id, t]));
    expect(totals.get(h.c.id)).toMatchObject({ would_pages: 2, actual_pages: 0 });
    expect(totals.get(h.a.id)).toMatchObject({ would_pages: 0, actual_pages: 2 });
    expect(await rowCount(stack.orm, 'escalation_policies')).toBe(policiesBefore);
  });

  it('when a person is paged at 23:00 in their own zone, then it counts as a night page for them', async () => {
    // The runs above happened minutes ago: A lives where that was 23:00, B where it was noon.
    await knexOf(stack.orm)('users')
      .where({ id: h.a.id })
      .update({ time_zone: zoneAtHour(23) });
    await knexOf(stack.orm)('users')
      .where({ id: h.b.id })
      .update({ time_zone: zoneAtHour(12) });

    const res = await simulate(h, { policy_id: h.policyId });

    const totals = new Map(res.body.data.totals.map((t: { user_id: string }) => [t.user_id, t]));
    expect(totals.get(h.a.id)).toMatchObject({ night_pages: 2 });
    expect(totals.get(h.b.id)).toMatchObject({ night_pages: 0 });
  });

  it('when the input is wrong, then the answer names the field and nothing is replayed', async () => {
    const later = new Date(Date.now() + 60_000).toISOString();
    expectDashboardError(await simulate(h, { policy_id: h.policyId, from: later, to: h.from }), 400, 'invalid_request', /to/);
    expectDashboardError(await simulate(h, { policy_id: h.policyId, policy: { steps: [] } }), 400, 'invalid_request', /policy/);
    expectDashboardError(await simulate(h, {}), 400, 'invalid_request', /exactly one of policy and policy_id/);
    expectDashboardError(await simulate(h, { policy_id: h.policyId, from: 'yesterday' }), 400, 'invalid_request', /from/);
    expectDashboardError(
      await simulate(h, { policy_id: h.policyId, from: '2026-01-01T00:00:00Z', to: '2026-06-01T00:00:00Z' }),
      400,
      'invalid_request',
      /at most 90 days/,
    );
    const other = await seedWorkspace(stack.orm);
    expectDashboardError(await simulate(h, { policy_id: h.policyId, service_id: other.serviceId }), 404, 'not_found');
    const stranger = await responder(stack.orm, other.organizationId, 'sms');
    expectDashboardError(
      await simulate(h, { policy: { steps: [{ delay_seconds: 60, targets: [{ type: 'user', id: stranger.id }] }] } }),
      400,
      'unknown_target',
      /steps\[0\]\.targets\[0\]/,
    );
  });
});

/** A fixed-offset zone where the current UTC hour is `hour` there. */
function zoneAtHour(hour: number): string {
  const offset = (hour - new Date().getUTCHours() + 24) % 24;
  if (offset === 0) return 'UTC';
  return offset <= 12 ? `Etc/GMT-${offset}` : `Etc/GMT+${24 - offset}`;
}
