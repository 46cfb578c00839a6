import { randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { addContactMethod } from '../../../src/services/paging/contacts';
import { addNotificationRule } from '../../../src/services/paging/notification-rules';
import { createSchedule } from '../../../src/services/paging/schedules';
import { addTeamMember } from '../../../src/services/workspace/team-members';
import { createTeam } from '../../../src/services/workspace/workspaces';
import { startSmtpFake, type SmtpFake } from '../../../src/integrations/smtp/testing/wire-fake';
import type { TwilioFake } from '../../../src/integrations/twilio/testing/wire-fake';
import { dashboard, expectDashboardError, memberSession, type DashboardSession } from '../../support/dashboard';
import { responder, startPagingStack } from '../../support/paging';
import type { TestStack } from '../../support/stack';
import { sleep, waitFor } from '../../support/wait';
import { addMember, rowCount, seedWorkspace } from '../../support/workspace';

// docs/drills.md: test pages through the Twilio and SMTP wire fakes, no incident, acknowledged by SMS reply.
const ACK_WINDOW_SECONDS = 8;
let stack: TestStack;
let twilio: TwilioFake;
let smtp: SmtpFake;

beforeAll(async () => {
  smtp = await startSmtpFake({ user: 'mailer', password: 'smtp-secret' });
  ({ stack, twilio } = await startPagingStack({
    SMTP_URL: smtp.url(),
    EMAIL_FROM: 'Klaxon <pager@klaxon.test>',
    DRILL_ACK_WINDOW_SECONDS: String(ACK_WINDOW_SECONDS),
  }));
});

afterAll(() => Promise.all([stack?.stop(), twilio?.close(), smtp?.close()]));

type Session = Pick<DashboardSession, 'cookie' | 'csrf'>;
const api = (method: string, path: string, session: Session, body?: unknown) => dashboard(stack.urls.app, method, path, { session, body });
const smsHook = () => `${stack.urls.app}/hooks/twilio/sms`;

interface DrillResult {
  user_id: string;
  user_name: string;
  channel: string | null;
  contact_method_id: string | null;
  status: 'pending' | 'delivered' | 'failed';
  latency_ms: number | null;
  acknowledged_at: string | null;
  error: string | null;
}

/** A workspace with an admin session and one person paged by SMS and by email. */
async function workspace() {
  const ws = await seedWorkspace(stack.orm);
  const admin = await memberSession(stack.urls.app, stack.orm, ws.organizationId, 'ACCOUNT_ADMIN');
  const person = await responder(stack.orm, ws.organizationId, 'sms');
  const email = `${randomUUID().slice(0, 8)}@pager.test`;
  const mail = await addContactMethod(stack.orm, { email: person.email, type: 'email', address: email });
  await addNotificationRule(stack.orm, { email: person.email, contactMethodId: mail.id, delaySeconds: 60 });
  return { ws, admin, person: { ...person, emailAddress: email, emailContactId: mail.id } };
}

/** The drill once no result is pending any more. */
async function settled(session: Session, id: string): Promise<{ id: string; results: DrillResult[]; finished_at: string | null }> {
  return waitFor(
    async () => {
      const res = await api('GET', `/drills/${id}`, session);
      expect(res.status).toBe(200);
      return res.body.data.results.every((r: DrillResult) => r.status !== 'pending') && res.body.data;
    },
    20_000,
    'every result settled',
  );
}

const incidentRows = async () => ({
  incidents: await rowCount(stack.orm, 'incidents'),
  notifications: await rowCount(stack.orm, 'notifications'),
  timeline: await rowCount(stack.orm, 'timeline_entries'),
});

describe('paging drills', () => {
  it('when a user with SMS and email rules is drilled, then both are delivered with a latency, marked as a test, and no incident, page or timeline row is written', async () => {
    const { admin, person } = await workspace();
    const before = await incidentRows();
    const res = await api('POST', '/drills', admin, { target: { type: 'user', id: person.id } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ id: expect.any(String), target: { type: 'user', id: person.id }, created_at: expect.any(String) });
    const drill = await settled(admin, res.body.data.id);
    expect(drill.results.map((r) => [r.channel, r.status, r.contact_method_id, r.user_id, r.acknowledged_at, r.error]).sort()).toEqual([
      ['email', 'delivered', person.emailContactId, person.id, null, null],
      ['sms', 'delivered', person.contactId, person.id, null, null],
    ]);
    for (const r of drill.results) expect(r.latency_ms).toEqual(expect.any(Number));
    expect(drill.results[0].user_name).toBe(person.email);

    const sms = await twilio.waitFor('message', (m) => m.params.To === person.address);
    expect(sms.params.Body).toMatch(/^\[TEST\] Klaxon paging drill: no incident\. Reply \d+A to acknowledge\.$/);
    const mail = await smtp.waitFor((m) => m.to.includes(person.emailAddress));
    expect(mail.data).toMatch(/^Subject: \[TEST\] Klaxon paging drill: no incident$/m);
    expect(mail.data).toContain('/hooks/page/');
    expect(await incidentRows()).toEqual(before);
  });

  it('when Twilio refuses the number, then that result fails with the provider error, the email still goes and the number stays enabled', async () => {
    const { admin, person } = await workspace();
    twilio.failTo(person.address, { code: 21211, status: 400 });
    const res = await api('POST', '/drills', admin, { target: { type: 'user', id: person.id }, channels: ['sms', 'email'] });
    expect(res.status).toBe(201);
    const drill = await settled(admin, res.body.data.id);
    const sms = drill.results.find((r) => r.channel === 'sms')!;
    expect(sms).toMatchObject({ status: 'failed', latency_ms: null });
    expect(sms.error).toMatch(/not a valid phone number/);
    expect(drill.results.find((r) => r.channel === 'email')).toMatchObject({ status: 'delivered', error: null });
    expect((await knexOf(stack.orm)('contact_methods').where({ id: person.contactId }).first()).disabled_at).toBeNull();
  });

  it('when an on-call person’s latest drill reached them on no channel, then readiness shows failed_in_drill for their shift until a drill reaches them', async () => {
    const { ws, admin, person } = await workspace();
    const schedule = await createSchedule(stack.orm, {
      organizationId: ws.organizationId,
      name: 'Primary',
      timeZone: 'UTC',
      layers: [{ users: [person.email], rotation: { unit: 'weeks', length: 1 }, start: '2026-01-05' }],
    });
    twilio.failTo(person.address, { code: 21211, status: 400 });
    await settled(admin, (await api('POST', '/drills', admin, { target: { type: 'user', id: person.id }, channels: ['sms'] })).body.data.id);
    const gaps = async () =>
      (await api('GET', `/readiness?schedule_id=${schedule.id}`, admin)).body.data.gaps as Array<{ kind: string; user_id?: string; detail: string }>;
    const [gap] = await gaps();
    expect(gap).toMatchObject({ kind: 'failed_in_drill', user_id: person.id });
    expect(gap.detail).toMatch(/was not reached by their last paging drill \(sms: .*not a valid phone number/);
    twilio.clearFailure(person.address);
    await settled(admin, (await api('POST', '/drills', admin, { target: { type: 'schedule', id: schedule.id } })).body.data.id);
    expect(await gaps()).toEqual([]);
  });

  it('when the person replies with the drill code, then their result is acknowledged and no incident is touched; a replayed reply changes nothing', async () => {
    const { admin, person } = await workspace();
    const before = await incidentRows();
    const res = await api('POST', '/drills', admin, { target: { type: 'user', id: person.id }, channels: ['sms'] });
    const sms = await twilio.waitFor('message', (m) => m.params.To === person.address);
    const code = /Reply (\d+)A/.exec(sms.params.Body)![1];
    const reply = await twilio.replySms({
      from: person.address,
      to: '+15550000000',
      body: `${code}a`,
      url: smsHook(),
      messageSid: `SM${randomUUID().replace(/-/g, '')}`,
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('Drill acknowledged');
    const drill = await settled(admin, res.body.data.id);
    expect(drill.results).toEqual([expect.objectContaining({ channel: 'sms', status: 'delivered', acknowledged_at: expect.any(String) })]);
    expect(await incidentRows()).toEqual(before);
    const wrong = await twilio.replySms({ from: person.address, to: '+15550000000', body: `${code}R`, url: smsHook() });
    expect(wrong.body).toContain('paging drill');
  });

  it('when the person opens the email link and confirms, or presses 1 on the drill call, then those results are acknowledged', async () => {
    const { ws, admin, person } = await workspace();
    const caller = await responder(stack.orm, ws.organizationId, 'voice');
    const team = await createTeam(stack.orm, { organizationId: ws.organizationId, name: 'Links' });
    await addTeamMember(stack.orm, { teamId: team.id, email: person.email });
    await addTeamMember(stack.orm, { teamId: team.id, email: caller.email });
    const res = await api('POST', '/drills', admin, { target: { type: 'team', id: team.id }, channels: ['email', 'voice'] });
    const mail = await smtp.waitFor((m) => m.to.includes(person.emailAddress));
    const token = /\/hooks\/page\/([\w.-]+)/.exec(mail.data.replace(/=\r?\n/g, ''))![1];
    const confirmed = await fetch(`${stack.urls.app}/hooks/page/${token}`, { method: 'POST' });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain('Drill acknowledged');
    const again = await fetch(`${stack.urls.app}/hooks/page/${token}`, { method: 'POST' });
    expect(again.status).toBe(409);

    const call = await twilio.waitFor('call', (c) => c.params.To === caller.address);
    expect(call.params.Twiml).toContain('paging drill');
    const gather = /action="([^"]+)"/.exec(call.params.Twiml)![1].replace(/&amp;/g, '&');
    const pressed = await twilio.pressKey({ callSid: call.sid!, digits: '1', url: gather });
    expect(pressed.body).toContain('Drill acknowledged');
    const drill = await settled(admin, res.body.data.id);
    expect(drill.results.map((r) => [r.user_id, r.channel, r.status, typeof r.acknowledged_at]).sort()).toEqual(
      [
        [person.id, 'email', 'delivered', 'string'],
        [caller.id, 'voice', 'delivered', 'string'],
      ].sort(),
    );
  });

  it('when Twilio later reports the drill SMS undelivered, then the result turns failed with the report', async () => {
    const { admin, person } = await workspace();
    const res = await api('POST', '/drills', admin, { target: { type: 'user', id: person.id }, channels: ['sms'] });
    const sms = await twilio.waitFor('message', (m) => m.params.To === person.address);
    await settled(admin, res.body.data.id);
    const report = await twilio.callBackTo(`${stack.urls.app}/hooks/twilio/status`, { MessageSid: sms.sid!, MessageStatus: 'undelivered', ErrorCode: '30003' });
    expect(report.status).toBe(204);
    const drill = (await api('GET', `/drills/${res.body.data.id}`, admin)).body.data;
    expect(drill.results).toEqual([expect.objectContaining({ status: 'failed', error: 'provider reported undelivered (30003)' })]);
  });

  it('when nobody acknowledges within the window, then the drill finishes with acknowledged_at null and a late reply does not count', async () => {
    const { admin, person } = await workspace();
    const res = await api('POST', '/drills', admin, { target: { type: 'user', id: person.id }, channels: ['sms'] });
    const sms = await twilio.waitFor('message', (m) => m.params.To === person.address);
    const finished = await waitFor(
      async () => {
        const d = (await api('GET', `/drills/${res.body.data.id}`, admin)).body.data;
        return d.finished_at !== null && d;
      },
      (ACK_WINDOW_SECONDS + 15) * 1000,
      'the window to close',
    );
    expect(finished.results).toEqual([expect.objectContaining({ status: 'delivered', acknowledged_at: null })]);
    const code = /Reply (\d+)A/.exec(sms.params.Body)![1];
    const late = await twilio.replySms({ from: person.address, to: '+15550000000', body: `${code}A`, url: smsHook() });
    expect(late.body).toContain('too late');
    expect((await api('GET', `/drills/${res.body.data.id}`, admin)).body.data.results[0].acknowledged_at).toBeNull();
  }, 40_000);

  it('when no worker runs as the drill starts, then its results stay pending and are sent once a worker is back', async () => {
    const { admin, person } = await workspace();
    await stack.worker.stop();
    let id: string;
    try {
      const res = await api('POST', '/drills', admin, { target: { type: 'user', id: person.id }, channels: ['sms'] });
      expect(res.status).toBe(201);
      id = res.body.data.id;
      await sleep(1500);
      expect((await api('GET', `/drills/${id}`, admin)).body.data.results).toEqual([expect.objectContaining({ status: 'pending' })]);
      expect(twilio.requests.filter((r) => r.params.To === person.address)).toHaveLength(0);
    } finally {
      await stack.worker.start();
    }
    const drill = await settled(admin, id);
    expect(drill.results).toEqual([expect.objectContaining({ status: 'delivered', latency_ms: expect.any(Number) })]);
    expect(drill.results[0].latency_ms).toBeGreaterThanOrEqual(1500);
  }, 40_000);

  it('when a team is drilled, then each member is paged, and a member with nothing to send gets a failed result saying why', async () => {
    const { ws, admin, person } = await workspace();
    const team = await createTeam(stack.orm, { organizationId: ws.organizationId, name: 'Drilled' });
    const unreachable = await addMember(stack.orm, ws.organizationId, 'MEMBER');
    await addTeamMember(stack.orm, { teamId: team.id, email: person.email });
    await addTeamMember(stack.orm, { teamId: team.id, email: unreachable.email });
    const res = await api('POST', '/drills', admin, { target: { type: 'team', id: team.id } });
    expect(res.status).toBe(201);
    const drill = await settled(admin, res.body.data.id);
    expect(drill.results.filter((r) => r.user_id === person.id).map((r) => r.status)).toEqual(['delivered', 'delivered']);
    expect(drill.results.filter((r) => r.user_id === unreachable.id)).toEqual([
      expect.objectContaining({ status: 'failed', channel: null, error: 'no notification rule pages them on an enabled, verified contact method' }),
    ]);
  });

  it('when a schedule is drilled, then only who is on call now is paged', async () => {
    const { ws, admin, person } = await workspace();
    const offCall = await responder(stack.orm, ws.organizationId, 'sms');
    const schedule = await createSchedule(stack.orm, {
      organizationId: ws.organizationId,
      name: 'Primary',
      timeZone: 'UTC',
      layers: [{ users: [person.email], rotation: { unit: 'weeks', length: 1 }, start: '2026-01-05' }],
    });
    const res = await api('POST', '/drills', admin, { target: { type: 'schedule', id: schedule.id }, channels: ['sms'] });
    expect(res.status).toBe(201);
    const drill = await settled(admin, res.body.data.id);
    expect(drill.results).toEqual([expect.objectContaining({ user_id: person.id, channel: 'sms', status: 'delivered' })]);
    expect(twilio.requests.filter((r) => r.params.To === offCall.address)).toHaveLength(0);
  });

  it('when drills ran, then GET /api/drills lists them newest first with a total, and another workspace sees none of them', async () => {
    const { ws, admin, person } = await workspace();
    const first = await api('POST', '/drills', admin, { target: { type: 'user', id: person.id }, channels: ['email'] });
    const second = await api('POST', '/drills', admin, { target: { type: 'user', id: admin.userId } });
    expect(second.status).toBe(201);
    const list = await api('GET', '/drills?limit=1', admin);
    expect(list.status).toBe(200);
    expect(list.body.meta).toEqual({ total: 2, limit: 1, offset: 0 });
    expect(list.body.data.map((d: { id: string }) => d.id)).toEqual([second.body.data.id]);
    const all = await api('GET', '/drills', admin);
    expect(all.body.data.map((d: { id: string }) => d.id)).toEqual([second.body.data.id, first.body.data.id]);
    // The admin has no contact method: nothing to send, said so.
    expect(all.body.data[0].results).toEqual([expect.objectContaining({ user_id: admin.userId, status: 'failed', channel: null })]);
    const other = await seedWorkspace(stack.orm);
    const stranger = await memberSession(stack.urls.app, stack.orm, other.organizationId, 'ACCOUNT_ADMIN');
    expect((await api('GET', '/drills', stranger)).body.data).toEqual([]);
    expectDashboardError(await api('GET', `/drills/${first.body.data.id}`, stranger), 404, 'not_found');
    expect(ws.organizationId).not.toBe(other.organizationId);
  });

  it('when the input is bad (unknown target, another workspace’s team, unknown channel), then 400 or 404 names the field and nothing is written or sent', async () => {
    const { admin, person } = await workspace();
    const other = await seedWorkspace(stack.orm);
    const drills = await rowCount(stack.orm, 'drills');
    const sent = twilio.requests.length;
    expectDashboardError(await api('POST', '/drills', admin, { target: { type: 'user', id: randomUUID() } }), 404, 'not_found', /^target\.id: /);
    expectDashboardError(await api('POST', '/drills', admin, { target: { type: 'team', id: other.teamId } }), 404, 'not_found', /^target\.id: /);
    expectDashboardError(await api('POST', '/drills', admin, { target: { type: 'schedule', id: randomUUID() } }), 404, 'not_found', /^target\.id: /);
    expectDashboardError(
      await api('POST', '/drills', admin, { target: { type: 'user', id: person.id }, channels: ['pigeon'] }),
      400,
      'invalid_request',
      /^channels/,
    );
    expectDashboardError(await api('POST', '/drills', admin, { target: { type: 'service', id: person.id } }), 400, 'invalid_request', /^target\.type/);
    expectDashboardError(await api('POST', '/drills', admin, { target: { type: 'user', id: 'nope' } }), 400, 'invalid_request', /^target\.id/);
    await sleep(300);
    expect(await rowCount(stack.orm, 'drills')).toBe(drills);
    expect(twilio.requests.length).toBe(sent);
  });

  it('when a member drills someone else, then 403; themselves, 201; the same target again within a minute, 429 with Retry-After', async () => {
    const { ws, person } = await workspace();
    const member = await memberSession(stack.urls.app, stack.orm, ws.organizationId, 'MEMBER');
    expectDashboardError(await api('POST', '/drills', member, { target: { type: 'user', id: person.id } }), 403, 'forbidden');
    expectDashboardError(await api('POST', '/drills', member, { target: { type: 'team', id: ws.teamId } }), 403, 'forbidden');
    const manager = await memberSession(stack.urls.app, stack.orm, ws.organizationId, 'TEAM_MANAGER');
    expectDashboardError(await api('POST', '/drills', manager, { target: { type: 'team', id: ws.teamId } }), 403, 'forbidden');
    await addTeamMember(stack.orm, { teamId: ws.teamId, email: manager.email });
    expect((await api('POST', '/drills', manager, { target: { type: 'team', id: ws.teamId } })).status).toBe(201);
    expect((await api('POST', '/drills', member, { target: { type: 'user', id: member.userId } })).status).toBe(201);
    const again = await api('POST', '/drills', member, { target: { type: 'user', id: member.userId } });
    expectDashboardError(again, 429, 'rate_limited', /drilled less than 60 s ago/);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    const audit = await knexOf(stack.orm)('audit_log').where({ organization_id: ws.organizationId, action: 'drill.start' });
    expect(audit).toHaveLength(2);
  });

  it('when a recurring drill is created, then a Temporal Schedule fires it for whoever is on call then, and deleting it removes the schedule', async () => {
    const { ws, admin, person } = await workspace();
    const schedule = await createSchedule(stack.orm, {
      organizationId: ws.organizationId,
      name: 'Weekly',
      timeZone: 'Europe/Berlin',
      layers: [{ users: [person.email], rotation: { unit: 'weeks', length: 1 }, start: '2026-01-05' }],
    });
    const created = await api('POST', '/drill-schedules', admin, {
      target: { type: 'schedule', id: schedule.id },
      channels: ['sms'],
      weekday: 'monday',
      time: '10:00',
      time_zone: 'Europe/Berlin',
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ cron: '0 10 * * 1', time_zone: 'Europe/Berlin', target: { type: 'schedule', id: schedule.id } });
    const id = created.body.data.id;
    expect((await api('GET', '/drill-schedules', admin)).body.data.map((s: { id: string }) => s.id)).toEqual([id]);

    const handle = stack.temporal.schedule.getHandle(`drill-schedule-${id}`);
    const described = await handle.describe();
    expect(described.spec.timezone).toBe('Europe/Berlin');
    expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: 'drillWorkflow' });
    const next = described.info.nextActionTimes[0];
    expect(next.getUTCDay()).toBe(1);
    expect(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit' }).format(next)).toBe('10:00');

    await handle.trigger();
    const drill = await waitFor(
      async () => {
        const list = (await api('GET', '/drills', admin)).body.data as Array<{ id: string; drill_schedule_id: string | null; results: DrillResult[] }>;
        const fired = list.find((d) => d.drill_schedule_id === id);
        return fired && fired.results.every((r) => r.status !== 'pending') && fired;
      },
      20_000,
      'the scheduled drill',
    );
    expect(drill.results).toEqual([expect.objectContaining({ user_id: person.id, channel: 'sms', status: 'delivered' })]);

    expect((await api('DELETE', `/drill-schedules/${id}`, admin)).status).toBe(200);
    await expect(handle.describe()).rejects.toThrow();
    expect((await api('GET', '/drill-schedules', admin)).body.data).toEqual([]);
    expect((await knexOf(stack.orm)('audit_log').where({ target_id: id }).orderBy('created_at')).map((a) => a.action)).toEqual([
      'drill_schedule.create',
      'drill_schedule.delete',
    ]);
  }, 40_000);

  it('when a recurring drill has neither cron nor weekday and time, or a bad cron, then 400 names the field and no schedule exists', async () => {
    const { admin, person } = await workspace();
    const target = { type: 'user', id: person.id };
    expectDashboardError(await api('POST', '/drill-schedules', admin, { target, time: '10:00' }), 400, 'invalid_request', /^weekday/);
    expectDashboardError(await api('POST', '/drill-schedules', admin, { target, cron: '* * * * *' }), 400, 'invalid_request', /^cron/);
    expectDashboardError(
      await api('POST', '/drill-schedules', admin, { target, cron: '0 9 * * 1', time_zone: 'Mars/Olympus' }),
      400,
      'invalid_request',
      /^time_zone/,
    );
    expect((await api('GET', '/drill-schedules', admin)).body.data).toEqual([]);
  });
});
