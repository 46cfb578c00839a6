import { randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { addContactMethod } from '../../../src/services/paging/contacts';
import { addNotificationRule } from '../../../src/services/paging/notification-rules';
import { onCall, pagingPeople } from '../../../src/services/paging';
import { createSchedule } from '../../../src/services/paging/schedules';
import { addTeamMember, createTeam, teamMemberIds } from '../../../src/services/workspace';
import { apiKeyFor, expectEnvelopeError } from '../../support/api-key';
import { dashboardFixture, expectDashboardError, memberSession, signUpAndLogIn } from '../../support/dashboard';
import { request } from '../../support/http';

// A Stakeholder (docs/importers.md, "Roles"): reads incidents, reports and on-call, acts on nothing,
// and is never a paging target, whatever names them: a schedule, an escalation step or a team.
const fx = dashboardFixture();
const api = fx.api;

async function workspace() {
  const owner = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
  const stakeholder = await memberSession(fx.stack.urls.app, fx.stack.orm, owner.organizationId, 'STAKEHOLDER');
  const member = await memberSession(fx.stack.urls.app, fx.stack.orm, owner.organizationId, 'MEMBER');
  return { owner, stakeholder, member, organizationId: owner.organizationId };
}

describe('a Stakeholder reads and acts on nothing', () => {
  it('when a Stakeholder reads incidents, readiness, reports, schedules and members, then each answers 200', async () => {
    const { stakeholder } = await workspace();
    for (const path of ['/incidents', '/readiness', '/schedules', '/members', '/escalation-policies', '/services']) {
      const res = await api('GET', path, { session: stakeholder });
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
    const report = await api('POST', '/reports/generate', { session: stakeholder, body: { type: 'summary' } });
    expect(report.status).toBe(200);
  });

  it('when a Stakeholder acknowledges, escalates, adds a contact method or a source, then 403 forbidden and nothing is written', async () => {
    const { stakeholder, organizationId } = await workspace();
    const auditBefore = Number((await knexOf(fx.stack.orm)('audit_log').where({ organization_id: organizationId }).count({ n: '*' }))[0].n);
    const attempts: Array<[string, string, unknown]> = [
      ['POST', `/incidents/${randomUUID()}/acknowledge`, {}],
      ['POST', `/incidents/${randomUUID()}/escalate`, {}],
      ['POST', '/contact-methods', { type: 'sms', address: '+15555550123' }],
      ['POST', '/notification-rules', { contact_method_id: randomUUID(), delay_seconds: 0 }],
      ['POST', '/drills', { target: { type: 'user', id: stakeholder.userId } }],
      ['POST', '/webhooks', { name: 'mine', notificationTypes: ['EMAIL'] }],
    ];
    for (const [method, path, body] of attempts) {
      const res = await api(method, path, { session: stakeholder, body });
      expectDashboardError(res, 403, 'forbidden');
      expect(res.body.error).toMatch(/Stakeholder reads incidents, reports and on-call/);
    }
    expect(await knexOf(fx.stack.orm)('contact_methods').where({ user_id: stakeholder.userId })).toEqual([]);
    expect(Number((await knexOf(fx.stack.orm)('audit_log').where({ organization_id: organizationId }).count({ n: '*' }))[0].n)).toBe(auditBefore);
  });

  it('when a Stakeholder changes their own password, then it is changed (their own account is theirs to keep)', async () => {
    const { stakeholder } = await workspace();
    const changed = await api('POST', '/auth/password', {
      session: stakeholder,
      body: { current_password: stakeholder.password, new_password: 'another long password' },
    });
    expect(changed.status).toBe(200);
  });

  it('when a Stakeholder’s API key acknowledges an alert, then 403; it still reads alerts', async () => {
    const { owner } = await workspace();
    const key = (await apiKeyFor(fx.stack.orm, owner.organizationId, 'STAKEHOLDER')).key;
    const write = await request('POST', `${fx.stack.urls.apiKey}/v1/alerts/${randomUUID()}/acknowledge`, { token: key });
    expect(write.status).toBe(403);
    expectEnvelopeError(write.body, 'forbidden');
    const read = await request('GET', `${fx.stack.urls.apiKey}/v1/alerts`, { token: key });
    expect(read.status).toBe(200);
  });
});

describe('a Stakeholder is never paged', () => {
  it('when a schedule or an escalation step names a Stakeholder, then 400 naming the field; a team pages its other members only', async () => {
    const { owner, stakeholder, member, organizationId } = await workspace();
    const layer = await api('POST', '/schedules', {
      session: owner,
      body: {
        name: 'Primary',
        time_zone: 'UTC',
        layers: [{ users: [stakeholder.userId], rotation: { unit: 'weeks', length: 1 }, start: '2026-01-05' }],
      },
    });
    expect(layer.status).toBe(400);
    expect(layer.body.error).toMatch(/layers\[0\]\.users: .* is a Stakeholder/);

    const step = await api('POST', '/escalation-policies', {
      session: owner,
      body: { name: 'Nope', steps: [{ delay_seconds: 60, targets: [{ type: 'user', id: stakeholder.userId }] }] },
    });
    expect(step.status).toBe(400);
    expect(step.body.error).toMatch(/steps\[0\]\.targets\[0\]: user .* is a Stakeholder, who reads but is never paged/);

    const team = await createTeam(fx.stack.orm, { organizationId, name: `Readers ${randomUUID().slice(0, 6)}` });
    await addTeamMember(fx.stack.orm, { teamId: team.id, email: member.email });
    await addTeamMember(fx.stack.orm, { teamId: team.id, email: stakeholder.email });
    expect(await teamMemberIds(fx.stack.orm, team.id)).toEqual([member.userId]);
  });

  it('when a member named in a schedule becomes a Stakeholder, then they are no longer on call nor paged, even with working rules', async () => {
    const { owner, member, organizationId } = await workspace();
    const contact = await addContactMethod(fx.stack.orm, { email: member.email, type: 'sms', address: '+15555550188', organizationId });
    await addNotificationRule(fx.stack.orm, { email: member.email, contactMethodId: contact.id, delaySeconds: 0 });
    const schedule = await createSchedule(fx.stack.orm, {
      organizationId,
      name: 'Solo',
      timeZone: 'UTC',
      layers: [{ users: [member.email], rotation: { unit: 'weeks', length: 1 }, start: '2026-01-05' }],
    });
    const at = new Date();
    expect((await onCall(fx.stack.orm, { scheduleId: schedule.id, at })).users.map((u) => u.id)).toEqual([member.userId]);
    expect((await pagingPeople(knexOf(fx.stack.orm), [member.userId], organizationId)).people.map((p) => p.userId)).toEqual([member.userId]);

    const demoted = await api('PUT', `/members/${member.userId}`, { session: owner, body: { role: 'STAKEHOLDER' } });
    expect(demoted.status).toBe(200);
    expect((await onCall(fx.stack.orm, { scheduleId: schedule.id, at })).users).toEqual([]);
    expect((await pagingPeople(knexOf(fx.stack.orm), [member.userId], organizationId)).people).toEqual([]);
  });
});
