import { randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { dashboardFixture, expectDashboardError, memberSession } from '../../support/dashboard';
import { pagingService, responder, trigger } from '../../support/paging';
import { sleep, waitFor } from '../../support/wait';
import { seedWorkspace } from '../../support/workspace';

// Adding responders and reassigning (docs/responding.md): real workflow, real paging (dev inbox).
const fx = dashboardFixture();
const db = () => knexOf(fx.stack.orm);
const pagesTo = async (incidentId: string, userId: string) => db()('notifications').where({ incident_id: incidentId, user_id: userId });

async function acknowledgedIncident() {
  const ws = await seedWorkspace(fx.stack.orm);
  const onCall = await responder(fx.stack.orm, ws.organizationId, 'email');
  const expert = await responder(fx.stack.orm, ws.organizationId, 'email');
  const ingestUrl = await pagingService(
    fx.stack.orm,
    ws,
    { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: onCall.id }] }] },
    fx.stack.urls.ingest,
  );
  const member = await memberSession(fx.stack.urls.app, fx.stack.orm, ws.organizationId, 'MEMBER');
  const id = await trigger(ingestUrl, 'Replication lag');
  await waitFor(async () => (await pagesTo(id, onCall.id)).length === 1, 20_000, 'the on-call page');
  await fx.api('POST', `/incidents/${id}/acknowledge`, { session: member });
  return { ws, onCall, expert, member, id };
}

describe('adding responders', () => {
  it('when a member adds a person to an acknowledged incident, then that person is paged now by their rules and the timeline says who asked', async () => {
    const { expert, member, id, onCall } = await acknowledgedIncident();
    const res = await fx.api('POST', `/incidents/${id}/responders`, {
      session: member,
      body: { targets: [{ type: 'user', id: expert.id }], message: 'need a DBA' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ pages: 1, entry: { type: 'responders_added', message: expect.stringContaining(expert.email) } });
    await waitFor(async () => (await pagesTo(id, expert.id)).find((p) => p.status === 'sent'), 20_000, 'the expert’s page');

    const [entry] = await db()('timeline_entries').where({ incident_id: id, type: 'responders_added' });
    expect(entry).toMatchObject({ actor_id: member.userId, via: 'dashboard' });
    expect(entry.message).toContain('need a DBA');
    expect(entry.data.targets).toEqual([expect.objectContaining({ type: 'user', id: expert.id, user_ids: [expert.id] })]);
    const [event] = await db()('incident_events').where({ incident_id: id, type: 'incident.responders_added' });
    expect(event.actor).toMatchObject({ type: 'user', id: member.userId });
    expect((await db()('incidents').where({ id }).first()).status).toBe('ACKNOWLEDGED');
    expect(await pagesTo(id, onCall.id)).toHaveLength(1);
  });

  it('when a target is not in the workspace, or the incident is resolved, then it is refused and nobody is paged', async () => {
    const { expert, member, id } = await acknowledgedIncident();
    const stranger = randomUUID();
    expectDashboardError(
      await fx.api('POST', `/incidents/${id}/responders`, {
        session: member,
        body: {
          targets: [
            { type: 'user', id: expert.id },
            { type: 'team', id: stranger },
          ],
        },
      }),
      400,
      'unknown_target',
      /targets\[1\]: team/,
    );
    expectDashboardError(await fx.api('POST', `/incidents/${id}/responders`, { session: member, body: { targets: [] } }), 400, 'invalid_request', /targets/);
    await fx.api('POST', `/incidents/${id}/resolve`, { session: member });
    expectDashboardError(
      await fx.api('POST', `/incidents/${id}/responders`, { session: member, body: { targets: [{ type: 'user', id: expert.id }] } }),
      409,
      'invalid_transition',
    );
    await sleep(500);
    expect(await pagesTo(id, expert.id)).toHaveLength(0);
    expect(await db()('timeline_entries').where({ incident_id: id, type: 'responders_added' })).toHaveLength(0);
  });
});

describe('reassigning', () => {
  it('when a member reassigns an acknowledged incident, then it is TRIGGERED again and escalation restarts at the chosen person, not the policy’s first step', async () => {
    const { expert, member, id, onCall } = await acknowledgedIncident();
    const res = await fx.api('POST', `/incidents/${id}/reassign`, {
      session: member,
      body: { targets: [{ type: 'user', id: expert.id }], message: 'yours now' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, status: 'TRIGGERED', acknowledged_at: null });
    await waitFor(async () => (await pagesTo(id, expert.id)).find((p) => p.status === 'sent'), 20_000, 'the new assignee’s page');

    const move = await db()('timeline_entries').where({ incident_id: id, type: 'status_change', to_status: 'TRIGGERED' }).first();
    expect(move).toMatchObject({ from_status: 'ACKNOWLEDGED', actor_id: member.userId, via: 'dashboard' });
    expect(move.message).toContain('yours now');
    const decisions = await db()('timeline_entries').where({ incident_id: id, type: 'paging_decision' }).orderBy('seq');
    expect(decisions.at(-1).seq).toBeGreaterThan(move.seq);
    expect(decisions.at(-1).message).toContain(expert.email);
    const [event] = await db()('incident_events').where({ incident_id: id, type: 'incident.reassigned' });
    expect(event.data).toMatchObject({ operation: 'reassign', targets: [{ type: 'user', id: expert.id }] });
    expect(await pagesTo(id, onCall.id)).toHaveLength(1);
  });

  it('when the incident is resolved, then a reassign is 409 and changes nothing', async () => {
    const { expert, member, id } = await acknowledgedIncident();
    await fx.api('POST', `/incidents/${id}/resolve`, { session: member });
    expectDashboardError(
      await fx.api('POST', `/incidents/${id}/reassign`, { session: member, body: { targets: [{ type: 'user', id: expert.id }] } }),
      409,
      'invalid_transition',
      /RESOLVED/,
    );
    expect((await db()('incidents').where({ id }).first()).status).toBe('RESOLVED');
  });
});
