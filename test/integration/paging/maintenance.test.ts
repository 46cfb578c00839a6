import { knexOf } from '../../../src/db/knex';
import { addTeamMember } from '../../../src/services/workspace/team-members';
import type { TwilioFake } from '../../../src/integrations/twilio/testing/wire-fake';
import { dashboard, memberSession } from '../../support/dashboard';
import { request } from '../../support/http';
import { notificationsOf, pagingService, responder, startPagingStack, trigger } from '../../support/paging';
import type { TestStack } from '../../support/stack';
import { sleep, waitFor } from '../../support/wait';
import { seedWorkspace } from '../../support/workspace';

// docs/maintenance-windows.md: during a window incidents open but page nobody (the timeline says
// why); when it ends, those still TRIGGERED page as if they had just opened, on a workflow timer.
let stack: TestStack;
let twilio: TwilioFake;

beforeAll(async () => {
  ({ stack, twilio } = await startPagingStack());
});

afterAll(() => Promise.all([stack?.stop(), twilio?.close()]));

/** A workspace whose service pages one person by SMS at once, an admin's session, and its ingestion URL. */
async function pagedService() {
  const ws = await seedWorkspace(stack.orm);
  const person = await responder(stack.orm, ws.organizationId, 'sms');
  const ingestUrl = await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: person.id }] }] }, stack.urls.ingest);
  const session = await memberSession(stack.urls.app, stack.orm, ws.organizationId, 'ACCOUNT_ADMIN');
  const api = (method: string, path: string, body?: unknown) => dashboard(stack.urls.app, method, path, { session, body });
  const customer = (method: string, path: string) =>
    request(method, `${stack.urls.app}/api/v1/organizations/${ws.organizationId}/incidents${path}`, { token: ws.tokens.readWrite });
  /** Opens a window over the service; answers it. */
  const openWindow = async (span: { minutes: number } | { starts_at: string; ends_at: string }, reason = 'Database upgrade') => {
    const res = await api('POST', '/maintenance-windows', { service_ids: [ws.serviceId], reason, ...span });
    expect(res.status).toBe(201);
    return res.body.data as { id: string; ends_at: string; state: string };
  };
  return { ws, person, ingestUrl, api, customer, openWindow };
}

const secondsFromNow = (s: number) => new Date(Date.now() + s * 1000).toISOString();
const smsTo = (address: string, title: string, timeoutMs = 20_000) =>
  twilio.waitFor('message', (m) => m.params.To === address && m.params.Body.includes(title), timeoutMs);
const smsCount = (address: string, title: string) => twilio.messages().filter((m) => m.params.To === address && m.params.Body.includes(title)).length;
const decisions = async (incidentId: string) =>
  knexOf(stack.orm)('timeline_entries').select('seq', 'message', 'data').where({ incident_id: incidentId, type: 'paging_decision' }).orderBy('seq');
/** Waits for the incident's `count`-th paging decision to be a maintenance hold; answers it. */
const held = (incidentId: string, count = 1) =>
  waitFor(
    async () => {
      const found = await decisions(incidentId);
      return found.length >= count && found[count - 1].data.kind === 'maintenance_window' && found[count - 1];
    },
    20_000,
    `hold #${count} on the timeline`,
  );

describe('maintenance windows', () => {
  it('when alerts arrive before, during and after a window, then only those during it wait, the timeline and the API say why, and they page at its end', async () => {
    const s = await pagedService();
    const before = await trigger(s.ingestUrl, 'before the window');
    await smsTo(s.person.address, 'before the window');

    const window = await s.openWindow({ starts_at: new Date().toISOString(), ends_at: secondsFromNow(5) });
    expect(window.state).toBe('active');
    const during = await trigger(s.ingestUrl, 'during the window');
    const acked = await trigger(s.ingestUrl, 'acknowledged during the window');

    const entry = await held(during);
    expect(entry.message).toBe(`Not paged: maintenance window “Database upgrade” until ${window.ends_at}; pages then if still triggered.`);
    expect(entry.data).toEqual({ kind: 'maintenance_window', window_id: window.id, reason: 'Database upgrade', until: window.ends_at });
    await held(acked);
    const shown = await s.customer('GET', `/${during}`);
    expect(shown.body.data).toMatchObject({ status: 'TRIGGERED', paging_held: true, paging_held_until: window.ends_at });
    expect((await s.customer('GET', `/${before}`)).body.data).toMatchObject({ paging_held: false, paging_held_until: null });
    const listed = (await s.customer('GET', '')).body.data as Array<{ id: string; paging_held: boolean }>;
    expect(listed.find((i) => i.id === during)?.paging_held).toBe(true);
    expect((await s.customer('POST', `/${acked}/acknowledge`)).status).toBe(200);
    expect(await notificationsOf(stack.orm, during)).toEqual([]);

    // The window ends: the held incident pages as if it had just opened; the acknowledged one never does.
    const sms = await smsTo(s.person.address, 'during the window');
    const arrived = twilio.arrivals.find((a) => a.to === s.person.address && a.at >= Date.parse(window.ends_at));
    expect(arrived).toBeDefined();
    expect(sms.params.Body).toContain('during the window');
    const after = await decisions(during);
    expect(after.map((d) => d.data.kind)).toEqual(['maintenance_window', 'step_resolved']);
    expect((await s.customer('GET', `/${during}`)).body.data).toMatchObject({ paging_held: false, paging_held_until: null });

    const later = await trigger(s.ingestUrl, 'after the window');
    await smsTo(s.person.address, 'after the window');
    expect((await decisions(later)).map((d) => d.data.kind)).toEqual(['step_resolved']);
    await sleep(500);
    expect(await notificationsOf(stack.orm, acked)).toEqual([]);
    expect(smsCount(s.person.address, 'acknowledged during the window')).toBe(0);
  });

  it('when a window is ended early, then its held incident pages at once; a deleted window frees its incidents too', async () => {
    const s = await pagedService();
    const window = await s.openWindow({ minutes: 30 });
    const incident = await trigger(s.ingestUrl, 'ended early');
    await held(incident);
    await sleep(500);
    expect(smsCount(s.person.address, 'ended early')).toBe(0);

    const ended = await s.api('POST', `/maintenance-windows/${window.id}/end`);
    expect(ended.status).toBe(200);
    expect(ended.body.data).toMatchObject({ id: window.id, state: 'ended', ended_early_at: expect.any(String) });
    await smsTo(s.person.address, 'ended early', 10_000);
    expect((await s.api('POST', `/maintenance-windows/${window.id}/end`)).status).toBe(409);
    const list = await s.api('GET', `/maintenance-windows?service_id=${s.ws.serviceId}&state=ended`);
    expect(list.body.data.map((w: { id: string }) => w.id)).toEqual([window.id]);

    const second = await s.openWindow({ minutes: 30 }, 'Network work');
    const other = await trigger(s.ingestUrl, 'window deleted');
    expect((await held(other)).message).toContain('“Network work”');
    const deleted = await s.api('DELETE', `/maintenance-windows/${second.id}`);
    expect(deleted.status).toBe(200);
    await smsTo(s.person.address, 'window deleted', 10_000);
    expect((await s.api('DELETE', `/maintenance-windows/${second.id}`)).status).toBe(404);
    const audit = await knexOf(stack.orm)('audit_log')
      .where({ organization_id: s.ws.organizationId })
      .where('action', 'like', 'maintenance_window.%')
      .pluck('action');
    expect(audit.sort()).toEqual(['maintenance_window.create', 'maintenance_window.create', 'maintenance_window.delete', 'maintenance_window.end']);
  });

  it('when an incident is reopened during a window, then its new spell is held, and pages when the window ends', async () => {
    const s = await pagedService();
    const incident = await trigger(s.ingestUrl, 'reopened later');
    await smsTo(s.person.address, 'reopened later');
    expect((await s.customer('POST', `/${incident}/resolve`)).status).toBe(200);
    const window = await s.openWindow({ minutes: 30 });

    expect((await s.customer('POST', `/${incident}/reopen`)).status).toBe(200);
    await held(incident, 2);
    await sleep(1000);
    expect(smsCount(s.person.address, 'reopened later')).toBe(1);
    expect((await s.customer('GET', `/${incident}`)).body.data.paging_held).toBe(true);

    expect((await s.api('POST', `/maintenance-windows/${window.id}/end`)).status).toBe(200);
    await waitFor(async () => smsCount(s.person.address, 'reopened later') === 2, 10_000, 'the reopened spell’s page');
  });

  it('when a window ends while the worker is down, then the held page goes out once the worker returns', async () => {
    const s = await pagedService();
    const window = await s.openWindow({ starts_at: new Date().toISOString(), ends_at: secondsFromNow(4) });
    const incident = await trigger(s.ingestUrl, 'worker was down');
    await held(incident);

    await stack.worker.stop();
    try {
      await sleep(Math.max(0, Date.parse(window.ends_at) - Date.now()) + 1500);
      expect(smsCount(s.person.address, 'worker was down')).toBe(0);
    } finally {
      await stack.worker.start();
    }
    await smsTo(s.person.address, 'worker was down', 30_000);
  });

  it('when a window is asked for wrongly, then it is 400 or 404 naming the field, and nothing is written', async () => {
    const s = await pagedService();
    const other = await seedWorkspace(stack.orm);
    const count = async () => Number((await knexOf(stack.orm)('maintenance_windows').where({ organization_id: s.ws.organizationId }).count({ n: '*' }))[0].n);
    const post = (body: Record<string, unknown>) => s.api('POST', '/maintenance-windows', { reason: 'x', ...body });
    const now = Date.now();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ service_ids: [], minutes: 10 }, /service_ids/],
      [{ service_ids: [other.serviceId], minutes: 10 }, /service_ids: service .* is not a service of this workspace/],
      [{ service_ids: [s.ws.serviceId], starts_at: secondsFromNow(600), ends_at: secondsFromNow(60) }, /ends_at: must be after starts_at/],
      [
        { service_ids: [s.ws.serviceId], starts_at: new Date(now - 120_000).toISOString(), ends_at: new Date(now - 60_000).toISOString() },
        /ends_at: must be in the future/,
      ],
      [{ service_ids: [s.ws.serviceId], starts_at: secondsFromNow(0), ends_at: secondsFromNow(8 * 24 * 3600) }, /ends_at: a window lasts at most 7 days/],
      [{ service_ids: [s.ws.serviceId], minutes: 10, ends_at: secondsFromNow(60) }, /minutes/],
      [{ service_ids: [s.ws.serviceId] }, /starts_at/],
      [{ service_ids: [s.ws.serviceId], minutes: 10, reason: ' ' }, /reason/],
    ];
    for (const [body, error] of cases) {
      const res = await post(body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.body.error).toMatch(error);
    }
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await s.api('POST', `/maintenance-windows/${unknown}/end`)).status).toBe(404);
    expect((await s.api('DELETE', `/maintenance-windows/${unknown}`)).status).toBe(404);
    expect(await count()).toBe(0);

    // A member may read windows, not make them.
    const member = await memberSession(stack.urls.app, stack.orm, s.ws.organizationId, 'MEMBER');
    expect(
      (await dashboard(stack.urls.app, 'POST', '/maintenance-windows', { session: member, body: { service_ids: [s.ws.serviceId], minutes: 5, reason: 'x' } }))
        .status,
    ).toBe(403);
    // A Team Manager only for services of a team they are in (services.manage).
    const manager = await memberSession(stack.urls.app, stack.orm, s.ws.organizationId, 'TEAM_MANAGER');
    const asManager = () =>
      dashboard(stack.urls.app, 'POST', '/maintenance-windows', { session: manager, body: { service_ids: [s.ws.serviceId], minutes: 5, reason: 'x' } });
    expect((await asManager()).status).toBe(403);
    expect(await count()).toBe(0);
    await addTeamMember(stack.orm, { teamId: s.ws.teamId, email: manager.email });
    const managed = await asManager();
    expect(managed.status).toBe(201);
    expect((await s.api('DELETE', `/maintenance-windows/${managed.body.data.id}`)).status).toBe(200);
    const scheduled = await s.openWindow({ starts_at: secondsFromNow(3600), ends_at: secondsFromNow(7200) });
    expect(scheduled.state).toBe('scheduled');
    const listed = await dashboard(stack.urls.app, 'GET', '/maintenance-windows?state=scheduled', { session: member });
    expect(listed.body.data.map((w: { id: string }) => w.id)).toEqual([scheduled.id]);
    expect((await s.api('POST', `/maintenance-windows/${scheduled.id}/end`)).status).toBe(409);
  });
});
