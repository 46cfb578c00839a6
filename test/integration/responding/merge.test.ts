import { knexOf } from '../../../src/db/knex';
import { recordMergedAway } from '../../../src/services/incident';
import { incidentWorkflowId, mergeIntoUpdate } from '../../../src/contracts/workflows';
import { dashboardFixture, expectDashboardError, memberSession } from '../../support/dashboard';
import { pagingService, responder } from '../../support/paging';
import { sleep, waitFor } from '../../support/wait';
import { seedWorkspace } from '../../support/workspace';
import { pagedService } from '../../support/responding';

// Merging incidents (docs/responding.md, "Merge"): real workflows, Postgres and paging (dev inbox).
const fx = dashboardFixture();
const db = () => knexOf(fx.stack.orm);

/** Two incidents of one service, each from alerts of its own dedup key, each paged once; step 2 would page again after 3 s. */
async function twoIncidents() {
  const ws = await seedWorkspace(fx.stack.orm);
  const paged = await responder(fx.stack.orm, ws.organizationId, 'email');
  const ingestUrl = await pagingService(
    fx.stack.orm,
    ws,
    {
      steps: [
        { delay_seconds: 3, targets: [{ type: 'user', id: paged.id }] },
        { delay_seconds: 600, targets: [{ type: 'user', id: paged.id }] },
      ],
    },
    fx.stack.urls.ingest,
  );
  const member = await memberSession(fx.stack.urls.app, fx.stack.orm, ws.organizationId, 'MEMBER');
  const send = async (dedup_key: string) => {
    const res = await fetch(ingestUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: dedup_key, dedup_key }),
    });
    return ((await res.json()) as { incident_id: string }).incident_id;
  };
  const a = await send('api-latency');
  const b = await send('db-cpu');
  await send('db-cpu');
  await waitFor(async () => (await db()('notifications').whereIn('incident_id', [a, b])).length === 2, 20_000, 'both first pages');
  await waitFor(async () => (await db()('alerts').where({ incident_id: b })).length === 2, 20_000, 'both alerts of b');
  return { member, paged, a, b };
}

const numberOf = async (id: string) => (await db()('incidents').where({ id }).first()).number as number;

describe('merging incidents', () => {
  it('when a member merges one incident into another, then its alerts move, it resolves "merged into #N", both timelines and the feed say so, and nothing pages again', async () => {
    const { member, a, b } = await twoIncidents();
    const res = await fx.api('POST', `/incidents/${a}/merge`, { session: member, body: { incident_ids: [b] } });
    expect(res.status).toBe(200);
    expect(res.body.data.merged).toEqual([{ id: b, number: await numberOf(b), alerts_moved: 2 }]);
    expect(res.body.data.incident).toMatchObject({ id: a, status: 'TRIGGERED', alert_count: 3 });

    expect(await db()('alerts').where({ incident_id: a })).toHaveLength(3);
    expect(await db()('alerts').where({ incident_id: b })).toHaveLength(0);
    const resolvedB = await db()('timeline_entries').where({ incident_id: b, type: 'status_change', to_status: 'RESOLVED' }).first();
    expect(resolvedB.message).toContain(`merged into #${await numberOf(a)}`);
    expect(resolvedB).toMatchObject({ actor_id: member.userId, via: 'dashboard' });
    const mergedEntry = await db()('timeline_entries').where({ incident_id: a, type: 'merged' }).first();
    expect(mergedEntry.message).toContain(`#${await numberOf(b)}`);
    expect((await db()('incident_events').where({ incident_id: a, type: 'incident.merged' })).map((e) => e.data.alerts_moved)).toEqual([2]);
    const [bResolved] = await db()('incident_events').where({ incident_id: b, type: 'incident.resolved' });
    expect(bResolved.data).toMatchObject({ operation: 'merge', merged_into: { id: a } });

    await sleep(4000); // past step 2 of b's policy: b is resolved, so it does not page
    expect(await db()('notifications').where({ incident_id: b })).toHaveLength(1);
  });

  it('when a merge was cut short after the other incident moved (a worker or API killed), then asking again finishes it without moving or recording anything twice', async () => {
    const { member, a, b } = await twoIncidents();
    // The first half alone, as a request that died before the target recorded it leaves it.
    const into = { id: a, number: await numberOf(a) };
    const first = await fx.stack.temporal.workflow
      .getHandle(incidentWorkflowId(b))
      .executeUpdate(mergeIntoUpdate, { args: [{ actor: { type: 'user', id: member.userId, via: 'dashboard' }, into }] });
    expect(first.alerts_moved).toBe(2);
    // The activity retried after a worker died mid-write finds its own write.
    const row = await db()('incidents').where({ id: b }).first();
    const again = await recordMergedAway(db(), {
      incidentId: b,
      seq: row.last_seq,
      from: 'TRIGGERED',
      actor: { type: 'user', id: member.userId, via: 'dashboard' },
      at: new Date().toISOString(),
      into,
    });
    expect(again?.alertsMoved).toBe(2);

    for (let i = 0; i < 2; i++) {
      const res = await fx.api('POST', `/incidents/${a}/merge`, { session: member, body: { incident_ids: [b] } });
      expect(res.status).toBe(200);
      expect(res.body.data.merged).toEqual([{ id: b, number: await numberOf(b), alerts_moved: 2 }]);
    }
    expect(await db()('alerts').where({ incident_id: a })).toHaveLength(3);
    expect((await db()('incidents').where({ id: a }).first()).alert_count).toBe(3);
    expect(await db()('timeline_entries').where({ incident_id: a, type: 'merged' })).toHaveLength(1);
    expect(await db()('timeline_entries').where({ incident_id: b, type: 'status_change', to_status: 'RESOLVED' })).toHaveLength(1);
  });

  it('when the list names this incident, a resolved one, or nothing, then it is refused and nothing moves', async () => {
    const { member, a, b } = await twoIncidents();
    expectDashboardError(
      await fx.api('POST', `/incidents/${a}/merge`, { session: member, body: { incident_ids: [a] } }),
      400,
      'invalid_request',
      /incident_ids/,
    );
    expectDashboardError(
      await fx.api('POST', `/incidents/${a}/merge`, { session: member, body: { incident_ids: [] } }),
      400,
      'invalid_request',
      /incident_ids/,
    );
    await fx.api('POST', `/incidents/${b}/resolve`, { session: member });
    expectDashboardError(
      await fx.api('POST', `/incidents/${a}/merge`, { session: member, body: { incident_ids: [b] } }),
      409,
      'invalid_transition',
      /RESOLVED/,
    );
    expect(await db()('alerts').where({ incident_id: b })).toHaveLength(2);
    expect(await db()('timeline_entries').where({ incident_id: a, type: 'merged' })).toHaveLength(0);
  });

  it('when the sender later resolves a key whose alerts a merge moved, then they resolve on the incident merged into, which stays open while its own alert fires and resolves with its last one', async () => {
    // What a Prometheus Alertmanager sends: its alerts keyed by fingerprint, firing then resolved.
    const { member, alertmanager } = await pagedService(fx.stack);
    const a = (await alertmanager('api-latency', 'trigger'))!;
    const b = (await alertmanager('db-cpu', 'trigger'))!;
    expect(await alertmanager('db-cpu', 'trigger')).toBe(b);
    await waitFor(async () => (await db()('notifications').whereIn('incident_id', [a, b])).length === 2, 20_000, 'both first pages');
    expect((await fx.api('POST', `/incidents/${a}/merge`, { session: member, body: { incident_ids: [b] } })).status).toBe(200);

    // db-cpu's alerts now sit on a, with api-latency's still firing: the resolve resolves them there, and no incident.
    expect(await alertmanager('db-cpu', 'resolve')).toBeNull();
    const dbCpu = await db()('alerts').where({ dedup_key: 'alertmanager:db-cpu' }).select('incident_id', 'status');
    expect(dbCpu).toEqual([
      { incident_id: a, status: 'RESOLVED' },
      { incident_id: a, status: 'RESOLVED' },
    ]);
    expect(await db()('ingest_outbox').where({ incident_id: a, kind: 'resolved' })).toHaveLength(0);
    expect((await db()('incidents').where({ id: a }).first()).alerts_closed_at).toBeNull();

    // Its last firing alert resolved, a resolves for its sender, once.
    expect(await alertmanager('api-latency', 'resolve')).toBe(a);
    await waitFor(async () => (await db()('incidents').where({ id: a }).first()).status === 'RESOLVED', 20_000, 'a resolved by its sender');
    expect(await db()('timeline_entries').where({ incident_id: a, type: 'status_change', to_status: 'RESOLVED', via: 'ingest' })).toHaveLength(1);
    expect(await db()('alerts').where({ incident_id: a, status: 'ACTIVE' })).toHaveLength(0);
    expect(await db()('notifications').where({ incident_id: a })).toHaveLength(1);
  });
});
