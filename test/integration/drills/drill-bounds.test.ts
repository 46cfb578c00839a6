import { randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { addTeamMember } from '../../../src/services/workspace/team-members';
import { createTeam } from '../../../src/services/workspace/workspaces';
import type { TwilioFake } from '../../../src/integrations/twilio/testing/wire-fake';
import { dashboard, expectDashboardError, memberSession, type DashboardSession } from '../../support/dashboard';
import { notificationsOf, pagingService, responder, startPagingStack, trigger } from '../../support/paging';
import type { TestStack } from '../../support/stack';
import { waitFor } from '../../support/wait';
import { seedWorkspace } from '../../support/workspace';

// docs/drills.md, "What counts" and "Recurring drills": drills cannot be turned into a paid SMS and call cannon.
let stack: TestStack;
let twilio: TwilioFake;

beforeAll(async () => {
  ({ stack, twilio } = await startPagingStack({ DRILL_ACK_WINDOW_SECONDS: '5' }));
});

afterAll(() => Promise.all([stack?.stop(), twilio?.close()]));

type Session = Pick<DashboardSession, 'cookie' | 'csrf'>;
const api = (method: string, path: string, session: Session, body?: unknown) => dashboard(stack.urls.app, method, path, { session, body });

interface DrillResult {
  user_id: string;
  channel: string | null;
  status: string;
  error: string | null;
}
interface Drill {
  id: string;
  drill_schedule_id: string | null;
  results: DrillResult[];
}

async function workspace() {
  const ws = await seedWorkspace(stack.orm);
  const admin = await memberSession(stack.urls.app, stack.orm, ws.organizationId, 'ACCOUNT_ADMIN');
  const person = await responder(stack.orm, ws.organizationId, 'sms');
  return { ws, admin, person };
}

/** A drill once none of its results is pending. */
async function settled(session: Session, id: string): Promise<Drill> {
  return waitFor(
    async () => {
      const d = (await api('GET', `/drills/${id}`, session)).body.data as Drill;
      return d.results.every((r) => r.status !== 'pending') && d;
    },
    20_000,
    'every result settled',
  );
}

/** The drills a recurring drill fired, once each has settled. */
async function firedBy(session: Session, scheduleIds: string[]): Promise<Drill[]> {
  return waitFor(
    async () => {
      const all = (await api('GET', '/drills?limit=100', session)).body.data as Drill[];
      const fired = all.filter((d) => d.drill_schedule_id !== null && scheduleIds.includes(d.drill_schedule_id));
      return fired.length === scheduleIds.length && fired.every((d) => d.results.every((r) => r.status !== 'pending')) && fired;
    },
    30_000,
    'the recurring drills fired and settled',
  );
}

const smsTo = (address: string) => twilio.requests.filter((r) => r.kind === 'message' && r.params.To === address).length;

/** `count` pages of the month already sent to the person on a channel (what a busy month leaves in `notifications`). */
async function pagesThisMonth(organizationId: string, userId: string, channel: 'sms' | 'voice', count: number) {
  const now = new Date();
  await knexOf(stack.orm)('notifications').insert(
    Array.from({ length: count }, () => ({
      id: randomUUID(),
      organization_id: organizationId,
      incident_id: randomUUID(),
      user_id: userId,
      channel,
      target: 'seeded',
      status: 'sent',
      created_at: now,
      updated_at: now,
    })),
  );
}

describe('recurring drills per plan', () => {
  it('when a PRO workspace holds 8 recurring drills and 3 more are asked at once, then exactly 2 are made and the third is 403 plan_limit_reached, changing nothing', async () => {
    const { ws, admin, person } = await workspace();
    const body = (hour: number) => ({ target: { type: 'user', id: person.id }, channels: ['email'], cron: `0 ${hour} * * 1` });
    for (let hour = 0; hour < 8; hour++) expect((await api('POST', '/drill-schedules', admin, body(hour))).status).toBe(201);

    const racing = await Promise.all([8, 9, 10].map((hour) => api('POST', '/drill-schedules', admin, body(hour))));

    expect(racing.map((r) => r.status).sort()).toEqual([201, 201, 403]);
    const refused = racing.find((r) => r.status === 403)!;
    expectDashboardError(refused, 403, 'plan_limit_reached', /the PRO plan allows 10 recurring drills/);
    const k = knexOf(stack.orm);
    expect(await k('drill_schedules').where({ organization_id: ws.organizationId }).count({ n: '*' })).toEqual([{ n: '10' }]);
    expect(await k('audit_log').where({ organization_id: ws.organizationId, action: 'drill_schedule.create' }).count({ n: '*' })).toEqual([{ n: '10' }]);
    // Every row has its Temporal Schedule; the refused one made none.
    const ids = ((await api('GET', '/drill-schedules', admin)).body.data as Array<{ id: string }>).map((s) => s.id);
    for (const id of ids) await expect(stack.temporal.schedule.getHandle(`drill-schedule-${id}`).describe()).resolves.toBeDefined();

    // Deleting one makes room again.
    expect((await api('DELETE', `/drill-schedules/${ids[0]}`, admin)).status).toBe(200);
    expect((await api('POST', '/drill-schedules', admin, body(11))).status).toBe(201);
    for (const s of (await api('GET', '/drill-schedules', admin)).body.data as Array<{ id: string }>) await api('DELETE', `/drill-schedules/${s.id}`, admin);
  }, 60_000);

  it('when a FREE workspace asks for a third recurring drill, then 403 plan_limit_reached names its limit', async () => {
    const ws = await seedWorkspace(stack.orm);
    await knexOf(stack.orm)('organizations').where({ id: ws.organizationId }).update({ plan: 'FREE' });
    const admin = await memberSession(stack.urls.app, stack.orm, ws.organizationId, 'ACCOUNT_ADMIN');
    const body = (hour: number) => ({ target: { type: 'user', id: admin.userId }, cron: `0 ${hour} * * 1` });
    expect((await api('POST', '/drill-schedules', admin, body(1))).status).toBe(201);
    expect((await api('POST', '/drill-schedules', admin, body(2))).status).toBe(201);
    expectDashboardError(await api('POST', '/drill-schedules', admin, body(3)), 403, 'plan_limit_reached', /the FREE plan allows 2 recurring drills/);
    expect(await knexOf(stack.orm)('drill_schedules').where({ organization_id: ws.organizationId }).count({ n: '*' })).toEqual([{ n: '2' }]);
    for (const s of (await api('GET', '/drill-schedules', admin)).body.data as Array<{ id: string }>) await api('DELETE', `/drill-schedules/${s.id}`, admin);
  });
});

describe('a person drilled within the hour', () => {
  it('when three recurring drills of the same person fire at once, then one SMS goes and the other two results are skipped saying why', async () => {
    const { admin, person } = await workspace();
    const ids: string[] = [];
    for (const hour of [3, 4, 5]) {
      const res = await api('POST', '/drill-schedules', admin, { target: { type: 'user', id: person.id }, channels: ['sms'], cron: `0 ${hour} * * 1` });
      expect(res.status).toBe(201);
      ids.push(res.body.data.id);
    }

    await Promise.all(ids.map((id) => stack.temporal.schedule.getHandle(`drill-schedule-${id}`).trigger()));

    const fired = await firedBy(admin, ids);
    const results = fired.flatMap((d) => d.results);
    expect(results.map((r) => r.status).sort()).toEqual(['delivered', 'skipped', 'skipped']);
    for (const r of results.filter((x) => x.status === 'skipped')) {
      expect(r).toMatchObject({ user_id: person.id, channel: 'sms' });
      expect(r.error).toMatch(/^skipped: drilled on SMS at \S+ \(drill [\w-]+\); a recurring drill sends a person at most one page an hour per channel$/);
    }
    expect(smsTo(person.address)).toBe(1);
    for (const id of ids) await api('DELETE', `/drill-schedules/${id}`, admin);
  }, 60_000);

  it('when a team’s recurring drill fires after its member was drilled by hand, then that member is skipped and the others are paged; the readiness view ignores the skip', async () => {
    const { ws, admin, person } = await workspace();
    const colleague = await responder(stack.orm, ws.organizationId, 'sms');
    const team = await createTeam(stack.orm, { organizationId: ws.organizationId, name: 'Night shift' });
    await addTeamMember(stack.orm, { teamId: team.id, email: person.email });
    await addTeamMember(stack.orm, { teamId: team.id, email: colleague.email });
    const manual = await api('POST', '/drills', admin, { target: { type: 'user', id: person.id }, channels: ['sms'] });
    expect(manual.status).toBe(201);
    await settled(admin, manual.body.data.id);
    const created = await api('POST', '/drill-schedules', admin, {
      target: { type: 'team', id: team.id },
      channels: ['sms'],
      weekday: 'monday',
      time: '09:00',
    });

    await stack.temporal.schedule.getHandle(`drill-schedule-${created.body.data.id}`).trigger();

    const [fired] = await firedBy(admin, [created.body.data.id]);
    expect(fired.results.map((r) => [r.user_id, r.status]).sort()).toEqual(
      [
        [colleague.id, 'delivered'],
        [person.id, 'skipped'],
      ].sort(),
    );
    expect(fired.results.find((r) => r.user_id === person.id)!.error).toContain(`(drill ${manual.body.data.id})`);
    expect(smsTo(person.address)).toBe(1);
    expect(smsTo(colleague.address)).toBe(1);
    // Their latest drill that paged them reached them: no failed_in_drill for a skip.
    const gaps = (await api('GET', '/readiness', admin)).body.data.gaps as Array<{ kind: string; user_id?: string }>;
    expect(gaps.filter((g) => g.kind === 'failed_in_drill')).toEqual([]);
    await api('DELETE', `/drill-schedules/${created.body.data.id}`, admin);
  }, 60_000);
});

describe('drill SMS and calls against the monthly quota', () => {
  it('when a PRO person has 299 of 300 SMS this month, then a drill SMS is the 300th, the next drill’s SMS fails saying why, and a real page then goes by email', async () => {
    const { ws, admin, person } = await workspace();
    await pagesThisMonth(ws.organizationId, person.id, 'sms', 299);
    const team = await createTeam(stack.orm, { organizationId: ws.organizationId, name: 'Quota' });
    await addTeamMember(stack.orm, { teamId: team.id, email: person.email });

    const first = await settled(admin, (await api('POST', '/drills', admin, { target: { type: 'user', id: person.id }, channels: ['sms'] })).body.data.id);
    const second = await settled(admin, (await api('POST', '/drills', admin, { target: { type: 'team', id: team.id }, channels: ['sms'] })).body.data.id);

    expect(first.results).toEqual([expect.objectContaining({ channel: 'sms', status: 'delivered' })]);
    expect(second.results).toEqual([
      expect.objectContaining({
        channel: 'sms',
        status: 'failed',
        error: 'not sent: SMS quota of the PRO plan reached (300 per user per month); a real page would go by email',
      }),
    ]);
    expect(smsTo(person.address)).toBe(1);

    // The drill's SMS took the month's last one: a real page falls back to email, as over any quota.
    const ingestUrl = await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 60, targets: [{ type: 'user', id: person.id }] }] }, stack.urls.ingest);
    const incident = await trigger(ingestUrl);
    const [page] = await waitFor(
      async () => {
        const rows = await notificationsOf(stack.orm, incident);
        return rows.length > 0 && rows.every((r) => r.status !== 'sending') && rows;
      },
      20_000,
      'the real page',
    );
    expect(page).toMatchObject({ channel: 'email', fallback_reason: 'SMS quota of the PRO plan reached (300 per user per month); sent by email instead' });
    expect(smsTo(person.address)).toBe(1);
  }, 60_000);

  it('when a PRO person has used the 100 calls of the month, then a drill call fails saying why and no call is placed', async () => {
    const { ws, admin } = await workspace();
    const caller = await responder(stack.orm, ws.organizationId, 'voice');
    await pagesThisMonth(ws.organizationId, caller.id, 'voice', 100);

    const drill = await settled(admin, (await api('POST', '/drills', admin, { target: { type: 'user', id: caller.id }, channels: ['voice'] })).body.data.id);

    expect(drill.results).toEqual([
      expect.objectContaining({
        channel: 'voice',
        status: 'failed',
        error: 'not sent: voice call quota of the PRO plan reached (100 per user per month); a real page would go by email',
      }),
    ]);
    expect(twilio.requests.filter((r) => r.params.To === caller.address)).toHaveLength(0);
  });
});
