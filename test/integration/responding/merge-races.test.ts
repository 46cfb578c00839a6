import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { knexOf } from '../../../src/db/knex';
import { recordMergedAway } from '../../../src/services/incident';
import { lockDedupKeys, storeTriggers } from '../../../src/services/ingest/routing';
import { INVALID_TRANSITION } from '../../../src/contracts/workflows';
import { dashboardFixture, expectDashboardError } from '../../support/dashboard';
import { pagedService } from '../../support/responding';
import { sleep, waitFor } from '../../support/wait';

// A merge racing what senders do meanwhile (docs/responding.md, "Merge"): the fault suite's
// merger found these windows. Real workflows, Postgres and paging (dev inbox).
const fx = dashboardFixture();
const db = () => knexOf(fx.stack.orm);

/** Two incidents of one service, from Alertmanager alerts keyed `api` and `db`, each paged once. */
async function twoIncidents() {
  const { member, alertmanager } = await pagedService(fx.stack);
  const a = (await alertmanager('api', 'trigger'))!;
  const b = (await alertmanager('db', 'trigger'))!;
  await waitFor(async () => (await db()('notifications').whereIn('incident_id', [a, b])).length === 2, 20_000, 'both first pages');
  const row = async (id: string) => db()('incidents').where({ id }).first();
  return { member, alertmanager, a, b, row };
}

const actor = (userId: string) => ({ type: 'user' as const, id: userId, via: 'dashboard' as const });

describe('a merge racing the senders', () => {
  it('when the incident to merge into is resolving (its sender resolved its last alert), then the merge is refused and nothing moves, so no firing alert is left on it once it resolves', async () => {
    const { member, alertmanager, a, b, row } = await twoIncidents();
    // The sender's resolve is accepted while no worker runs: a stops taking alerts and waits for its workflow to resolve it.
    await fx.stack.worker.stop();
    try {
      expect(await alertmanager('api', 'resolve')).toBe(a);
      expect((await row(a)).status).toBe('TRIGGERED');
      expectDashboardError(
        await fx.api('POST', `/incidents/${a}/merge`, { session: member, body: { incident_ids: [b] } }),
        409,
        'invalid_transition',
        /resolving/,
      );
      // The merged incident's write checks it again with both rows locked (a resolve between the check and the write).
      const merged = await row(b);
      const write = recordMergedAway(db(), {
        incidentId: b,
        seq: merged.last_seq + 1,
        from: 'TRIGGERED',
        actor: actor(member.userId),
        at: new Date().toISOString(),
        into: { id: a, number: (await row(a)).number },
      });
      await expect(write).rejects.toThrow(/cannot merge into incident #\d+: its sender resolved its last alert/);
      await expect(write).rejects.toBeInstanceOf(ApplicationFailure);
      await expect(write.catch((err: ApplicationFailure) => [err.type, err.nonRetryable])).resolves.toEqual([INVALID_TRANSITION, true]);
    } finally {
      await fx.stack.worker.start();
    }
    expect(await db()('alerts').where({ incident_id: b, status: 'ACTIVE' })).toHaveLength(1);
    await waitFor(async () => (await row(a)).status === 'RESOLVED', 20_000, 'a resolved by its sender');
    expect((await row(b)).status).toBe('TRIGGERED');
    expect(await db()('timeline_entries').where({ incident_id: b, type: 'status_change' })).toHaveLength(0);
  });

  it('when an alert is being routed to the incident being merged, then the merge waits for it and moves it too: none lands on the merged incident after its move', async () => {
    const { member, a, b, row } = await twoIncidents();
    const [first] = await db()('alerts').where({ incident_id: b });
    const { team_id } = await db()('services').where({ id: first.service_id }).first('team_id');
    const source = { id: first.source_id, organizationId: first.organization_id, serviceId: first.service_id, teamId: team_id };
    // Ingestion's transaction holds b's key (routing.ts), as a request in flight does.
    const trx = await db().transaction();
    let merging: Promise<unknown> | undefined;
    try {
      await lockDedupKeys(trx, [{ serviceId: source.serviceId, dedupKey: first.dedup_key }]);
      const merged = await row(b);
      merging = recordMergedAway(db(), {
        incidentId: b,
        seq: merged.last_seq + 1,
        from: 'TRIGGERED',
        actor: actor(member.userId),
        at: new Date().toISOString(),
        into: { id: a, number: (await row(a)).number },
      });
      await sleep(500); // time for the merge to overtake the request, were it not waiting on the key
      expect((await row(b)).alerts_closed_at).toBeNull();
      const eventId = randomUUID();
      const item = {
        action: 'trigger' as const,
        title: 'db again',
        message: null,
        description: null,
        severity: 'HIGH' as const,
        dedupKey: first.dedup_key,
        sender: first.sender,
        metadata: {},
      };
      expect(await storeTriggers(trx, [{ source, item, eventId }])).toEqual([{ incidentId: b, opened: false }]);
      await trx.commit();
    } catch (err) {
      await trx.rollback();
      throw err;
    }
    await expect(merging).resolves.toMatchObject({ alertsMoved: 2 });
    expect(await db()('alerts').where({ incident_id: b })).toHaveLength(0);
    expect(await db()('alerts').where({ incident_id: a })).toHaveLength(3);
    expect((await row(a)).alert_count).toBe(3);
  });

  it('when the same merge is asked again while the first request still runs (a person asking again after a cut), then every request answers 200 and it is done once', async () => {
    const { member, a, b, row } = await twoIncidents();
    const ask = () => fx.api('POST', `/incidents/${a}/merge`, { session: member, body: { incident_ids: [b] } });
    const answers = await Promise.all([ask(), ask(), ask()]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    for (const r of answers) expect(r.body.data.merged).toEqual([{ id: b, number: (await row(b)).number, alerts_moved: 1 }]);
    expect(await db()('alerts').where({ incident_id: a })).toHaveLength(2);
    expect((await row(a)).alert_count).toBe(2);
    expect(await db()('timeline_entries').where({ incident_id: a, type: 'merged' })).toHaveLength(1);
    expect(await db()('timeline_entries').where({ incident_id: b, type: 'status_change', to_status: 'RESOLVED' })).toHaveLength(1);
  });
});
