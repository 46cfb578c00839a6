import { knexOf } from '../../../src/db/knex';
import { pagingService, responder, trigger } from '../../support/paging';
import { dashboardFixture, expectDashboardError, memberSession } from '../../support/dashboard';
import { waitFor } from '../../support/wait';
import { seedWorkspace } from '../../support/workspace';
import { addTeamMember } from '../../../src/services/workspace';

const fx = dashboardFixture();

/** A PRO workspace whose service pages one responder by email, and two signed-in members: the responder and a bystander. */
async function pagedWorkspace() {
  const ws = await seedWorkspace(fx.stack.orm);
  const paged = await responder(fx.stack.orm, ws.organizationId, 'email');
  const ingestUrl = await pagingService(fx.stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: paged.id }] }] }, fx.stack.urls.ingest);
  await knexOf(fx.stack.orm)('users')
    .where({ id: paged.id })
    .update({ password_hash: (await knexOf(fx.stack.orm)('users').select('password_hash').where({ email: ws.admin.email }).first()).password_hash });
  const responderSession = await loginAs(paged.email);
  const bystander = await memberSession(fx.stack.urls.app, fx.stack.orm, ws.organizationId, 'MEMBER');
  return { ws, paged, ingestUrl, responderSession, bystander };
}

async function loginAs(email: string) {
  const res = await fx.api('POST', '/auth/login', { body: { email, password: 'a long password' } });
  if (res.status !== 200) throw new Error(`login ${res.status}`);
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.startsWith('__Host-klaxon_session='))!
    .split(';')[0]
    .split('=')[1];
  return { cookie, csrf: res.body.data.csrf_token as string };
}

describe('incidents in the dashboard', () => {
  it('when an alert pages a responder, then the list shows it newest first with counts, and the incident shows its alert, the paging decision and the page sent', async () => {
    const { responderSession, ingestUrl, paged } = await pagedWorkspace();
    const id = await trigger(ingestUrl, 'Checkout is down');
    await waitFor(async () => (await knexOf(fx.stack.orm)('notifications').where({ incident_id: id }).first()) !== undefined, 20_000, 'the page');

    const list = await fx.api('GET', '/incidents', { session: responderSession });
    expect(list.status).toBe(200);
    expect(list.body.data[0]).toMatchObject({ id, title: 'Checkout is down', status: 'TRIGGERED', links: { temporal_ui: expect.stringContaining(id) } });
    expect(list.body.meta.counts).toEqual({ TRIGGERED: 1 });

    const one = await fx.api('GET', `/incidents/${id}`, { session: responderSession });
    expect(one.status).toBe(200);
    expect(one.body.data.alerts).toEqual([expect.objectContaining({ title: 'Checkout is down' })]);
    const decision = one.body.data.timeline.find((e: { type: string }) => e.type === 'paging_decision');
    expect(decision.message).toContain(paged.email);
    expect(one.body.data.pages).toEqual([
      expect.objectContaining({ channel: 'email', to: paged.address, user: { id: paged.id, email: paged.email }, status: expect.any(String) }),
    ]);
  });

  it('when filtering by assigned=me and my_teams, then only incidents that paged me or my teams’ incidents are listed', async () => {
    const { ws, responderSession, bystander, ingestUrl } = await pagedWorkspace();
    const id = await trigger(ingestUrl);
    await waitFor(async () => (await knexOf(fx.stack.orm)('notifications').where({ incident_id: id }).first()) !== undefined, 20_000, 'the page');
    expect((await fx.api('GET', '/incidents?assigned=me', { session: responderSession })).body.data.map((i: { id: string }) => i.id)).toEqual([id]);
    expect((await fx.api('GET', '/incidents?assigned=me', { session: bystander })).body.data).toEqual([]);
    expect((await fx.api('GET', '/incidents?assigned=my_teams', { session: bystander })).body.data).toEqual([]);
    await addTeamMember(fx.stack.orm, { teamId: ws.teamId, email: bystander.email });
    expect((await fx.api('GET', '/incidents?assigned=my_teams', { session: bystander })).body.data.map((i: { id: string }) => i.id)).toEqual([id]);
    expectDashboardError(await fx.api('GET', '/incidents?assigned=everyone', { session: bystander }), 400, 'invalid_request', /assigned/);
  });

  it('when a member acknowledges from the dashboard, then the incident is ACKNOWLEDGED by them, a repeat changes nothing, escalate is refused and resolve works', async () => {
    const { responderSession, ingestUrl, paged } = await pagedWorkspace();
    const id = await trigger(ingestUrl);
    await waitFor(async () => (await knexOf(fx.stack.orm)('incidents').where({ id }).first())?.status === 'TRIGGERED', 20_000, 'the incident');
    const acked = await fx.api('POST', `/incidents/${id}/acknowledge`, { session: responderSession });
    expect(acked.status).toBe(200);
    expect(acked.body.data.status).toBe('ACKNOWLEDGED');
    expect((await fx.api('POST', `/incidents/${id}/acknowledge`, { session: responderSession })).body.data.status).toBe('ACKNOWLEDGED');
    const entry = await knexOf(fx.stack.orm)('timeline_entries').where({ incident_id: id, to_status: 'ACKNOWLEDGED' }).first();
    expect(entry).toMatchObject({ actor_type: 'user', actor_id: paged.id, via: 'dashboard' });
    expectDashboardError(await fx.api('POST', `/incidents/${id}/escalate`, { session: responderSession }), 409, 'invalid_transition');
    expect((await fx.api('POST', `/incidents/${id}/resolve`, { session: responderSession })).body.data.status).toBe('RESOLVED');
    expectDashboardError(await fx.api('POST', `/incidents/${id}/investigate`, { session: responderSession }), 409, 'invalid_transition');
  });

  it('when another workspace’s incident is asked for, then it is 404, and acting on it changes nothing', async () => {
    const mine = await pagedWorkspace();
    const theirs = await pagedWorkspace();
    const id = await trigger(theirs.ingestUrl);
    await waitFor(async () => (await knexOf(fx.stack.orm)('incidents').where({ id }).first()) !== undefined, 20_000, 'the incident');
    expectDashboardError(await fx.api('GET', `/incidents/${id}`, { session: mine.responderSession }), 404, 'not_found');
    expectDashboardError(await fx.api('POST', `/incidents/${id}/acknowledge`, { session: mine.responderSession }), 404, 'not_found');
    expect((await knexOf(fx.stack.orm)('incidents').where({ id }).first()).status).toBe('TRIGGERED');
  });
});
