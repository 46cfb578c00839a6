import { createSchedule } from '../../../src/services/paging/schedules';
import { addContactMethod } from '../../../src/services/paging/contacts';
import { addNotificationRule } from '../../../src/services/paging/notification-rules';
import { knexOf } from '../../../src/db/knex';
import type { ReadinessGap } from '../../../src/domain/paging/readiness';
import { dashboard, expectDashboardError, memberSession } from '../../support/dashboard';
import { pagingService, phoneNumber, responder } from '../../support/paging';
import { startTestStack, type TestStack } from '../../support/stack';
import { addMember, seedWorkspace } from '../../support/workspace';

// docs/readiness.md: the gaps of the next 14 days, each kind.
let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(() => stack?.stop());

const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);

type Gap = ReadinessGap;

async function workspace() {
  const ws = await seedWorkspace(stack.orm);
  const ready = await responder(stack.orm, ws.organizationId, 'sms');
  const unreachable = await addMember(stack.orm, ws.organizationId, 'MEMBER');
  const slow = await addMember(stack.orm, ws.organizationId, 'MEMBER');
  const sms = await addContactMethod(stack.orm, { email: slow.email, type: 'sms', address: phoneNumber() });
  await knexOf(stack.orm)('contact_methods').where({ id: sms.id }).update({ verified_at: new Date() });
  await addNotificationRule(stack.orm, { email: slow.email, contactMethodId: sms.id, delaySeconds: 600 });
  // Daily hand-offs between the three, started long ago: each is on call every third day.
  const rotation = await createSchedule(stack.orm, {
    organizationId: ws.organizationId,
    name: 'Rotation',
    timeZone: 'UTC',
    layers: [{ users: [ready.email, unreachable.email, slow.email], rotation: { unit: 'days', length: 1 }, start: '2026-01-01' }],
  });
  // Starts in three days: nobody is on call before.
  const later = await createSchedule(stack.orm, {
    organizationId: ws.organizationId,
    name: 'Starts later',
    timeZone: 'UTC',
    layers: [{ users: [ready.email], rotation: { unit: 'weeks', length: 1 }, start: day(3) }],
  });
  await pagingService(
    stack.orm,
    ws,
    {
      steps: [
        { delay_seconds: 300, targets: [{ type: 'schedule', id: later.id }] },
        { delay_seconds: 300, targets: [{ type: 'user', id: unreachable.id }] },
      ],
    },
    stack.urls.ingest,
  );
  const policyId = (await knexOf(stack.orm)('services').select('escalation_policy_id').where({ id: ws.serviceId }).first()).escalation_policy_id as string;
  const session = await memberSession(stack.urls.app, stack.orm, ws.organizationId, 'MEMBER');
  return { ws, ready, unreachable, slow, rotation, later, policyId, session };
}

describe('GET /api/readiness', () => {
  let w: Awaited<ReturnType<typeof workspace>>;
  let gaps: Gap[];
  beforeAll(async () => {
    w = await workspace();
    const res = await dashboard(stack.urls.app, 'GET', '/readiness', { session: w.session });
    expect(res.status).toBe(200);
    gaps = res.body.data.gaps;
  });

  it('when an on-call person has no verified, working contact method, then each of their shifts in the next 14 days is a no_working_contact gap', () => {
    const shifts = gaps.filter((g) => g.kind === 'no_working_contact' && g.schedule_id === w.rotation.id);
    expect(shifts.length).toBeGreaterThanOrEqual(4);
    expect(new Set(shifts.map((g) => g.user_id))).toEqual(new Set([w.unreachable.id]));
    for (const g of shifts) expect(new Date(g.to).getTime() - new Date(g.from).getTime()).toBeLessThanOrEqual(DAY);
    expect(shifts[0].detail).toContain('has no verified, working contact method');
  });

  it('when an on-call person’s rules first page them after 10 minutes, then their shifts are rules_too_slow gaps; a person paged at once has none', () => {
    const slow = gaps.filter((g) => g.kind === 'rules_too_slow');
    expect(slow.length).toBeGreaterThanOrEqual(4);
    expect(new Set(slow.map((g) => g.user_id))).toEqual(new Set([w.slow.id]));
    expect(gaps.some((g) => g.user_id === w.ready.id)).toBe(false);
  });

  it('when a schedule has nobody on call until it starts, then that stretch is a schedule_gap, and a policy step paging only it resolves to nobody over the same stretch', () => {
    const gap = gaps.find((g) => g.kind === 'schedule_gap' && g.schedule_id === w.later.id);
    expect(gap).toBeDefined();
    const startsAt = new Date(`${day(3)}T00:00:00Z`).getTime();
    expect(new Date(gap!.to).getTime()).toBe(startsAt);
    const step = gaps.find((g) => g.kind === 'step_resolves_to_nobody');
    expect(step).toMatchObject({ policy_id: w.policyId, to: gap!.to });
    expect(step!.detail).toBe('step 1 of "On call" pages nobody: schedule "Starts later" has nobody on call');
  });

  it('when a policy step pages a person who cannot be reached, then the gap names the policy and the person', () => {
    expect(gaps).toContainEqual(expect.objectContaining({ kind: 'no_working_contact', policy_id: w.policyId, user_id: w.unreachable.id }));
  });

  it('when asked for one schedule or one policy, then only its gaps come back (a policy’s include its schedules’)', async () => {
    const bySchedule = (await dashboard(stack.urls.app, 'GET', `/readiness?schedule_id=${w.rotation.id}`, { session: w.session })).body.data.gaps as Gap[];
    expect(bySchedule.length).toBeGreaterThan(0);
    expect(bySchedule.every((g) => g.schedule_id === w.rotation.id)).toBe(true);
    const byPolicy = (await dashboard(stack.urls.app, 'GET', `/readiness?policy_id=${w.policyId}`, { session: w.session })).body.data.gaps as Gap[];
    expect(new Set(byPolicy.map((g) => g.kind))).toEqual(new Set(['step_resolves_to_nobody', 'no_working_contact', 'schedule_gap']));
    expect(byPolicy.every((g) => g.policy_id === w.policyId || g.schedule_id === w.later.id)).toBe(true);
  });

  it('when the query is wrong, then 400 names the field', async () => {
    expectDashboardError(await dashboard(stack.urls.app, 'GET', '/readiness?schedule_id=nope', { session: w.session }), 400, 'invalid_request', /schedule_id/);
    expectDashboardError(await dashboard(stack.urls.app, 'GET', '/readiness?when=later', { session: w.session }), 400, 'invalid_request', /when/);
  });

  it('when a workspace pages only a reachable person, then readiness has no gap', async () => {
    const ws = await seedWorkspace(stack.orm);
    const ready = await responder(stack.orm, ws.organizationId, 'sms');
    await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 300, targets: [{ type: 'user', id: ready.id }] }] }, stack.urls.ingest);
    const session = await memberSession(stack.urls.app, stack.orm, ws.organizationId, 'MEMBER');

    const res = await dashboard(stack.urls.app, 'GET', '/readiness', { session });

    expect(res.body.data.gaps.filter((g: Gap) => g.policy_id || g.schedule_id)).toEqual([]);
  });
});
