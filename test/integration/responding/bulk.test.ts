import { randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { dashboardFixture, expectDashboardError, memberSession } from '../../support/dashboard';
import { pagingService, responder, trigger } from '../../support/paging';
import { waitFor } from '../../support/wait';
import { seedWorkspace } from '../../support/workspace';

// Bulk acknowledge and resolve (docs/responding.md): each incident through its own workflow.
const fx = dashboardFixture();
const db = () => knexOf(fx.stack.orm);

async function workspaceWithIncidents(n: number) {
  const ws = await seedWorkspace(fx.stack.orm);
  const paged = await responder(fx.stack.orm, ws.organizationId, 'email');
  const ingestUrl = await pagingService(fx.stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: paged.id }] }] }, fx.stack.urls.ingest);
  const member = await memberSession(fx.stack.urls.app, fx.stack.orm, ws.organizationId, 'MEMBER');
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await trigger(ingestUrl));
  await waitFor(
    async () => (await db()('notifications').whereIn('incident_id', ids).countDistinct({ n: 'incident_id' }))[0].n == n,
    20_000,
    'every first page',
  );
  return { member, ids };
}

describe('bulk actions', () => {
  it('when a member acknowledges several incidents at once, then each is acknowledged by its workflow as them, and the others are answered one by one', async () => {
    const { member, ids } = await workspaceWithIncidents(3);
    const [a, b, resolved] = ids;
    await fx.api('POST', `/incidents/${resolved}/resolve`, { session: member });
    const theirs = (await workspaceWithIncidents(1)).ids[0];
    const unknown = randomUUID();

    const res = await fx.api('POST', '/incidents/bulk', {
      session: member,
      body: { action: 'acknowledge', incident_ids: [a, b, a, resolved, theirs, unknown] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.results).toEqual([
      { id: a, ok: true, number: expect.any(Number), status: 'ACKNOWLEDGED' },
      { id: b, ok: true, number: expect.any(Number), status: 'ACKNOWLEDGED' },
      { id: resolved, ok: false, code: 'invalid_transition', error: expect.stringContaining('RESOLVED') },
      { id: theirs, ok: false, code: 'not_found', error: expect.any(String) },
      { id: unknown, ok: false, code: 'not_found', error: expect.any(String) },
    ]);
    expect(res.body.data).toMatchObject({ succeeded: 2, failed: 3 });

    const moves = await db()('timeline_entries').whereIn('incident_id', [a, b]).andWhere({ to_status: 'ACKNOWLEDGED' });
    expect(moves.map((m) => [m.actor_id, m.via])).toEqual([
      [member.userId, 'dashboard'],
      [member.userId, 'dashboard'],
    ]);
    expect((await db()('incidents').where({ id: theirs }).first()).status).toBe('TRIGGERED');
    expect((await db()('incidents').where({ id: resolved }).first()).status).toBe('RESOLVED');
  });

  it('when the action or the list is not acceptable, then it is 400 naming the field and no incident moves', async () => {
    const { member, ids } = await workspaceWithIncidents(1);
    const tooMany = [ids[0], ...Array.from({ length: 100 }, () => randomUUID())];
    expectDashboardError(
      await fx.api('POST', '/incidents/bulk', { session: member, body: { action: 'close', incident_ids: ids } }),
      400,
      'invalid_request',
      /action/,
    );
    expectDashboardError(
      await fx.api('POST', '/incidents/bulk', { session: member, body: { action: 'resolve', incident_ids: tooMany } }),
      400,
      'invalid_request',
      /incident_ids/,
    );
    expectDashboardError(
      await fx.api('POST', '/incidents/bulk', { session: member, body: { action: 'resolve', incident_ids: [] } }),
      400,
      'invalid_request',
      /incident_ids/,
    );
    expectDashboardError(
      await fx.api('POST', '/incidents/bulk', { session: member, body: { action: 'resolve', incident_ids: ['x'] } }),
      400,
      'invalid_request',
      /incident_ids/,
    );
    expect((await db()('incidents').where({ id: ids[0] }).first()).status).toBe('TRIGGERED');
  });
});
