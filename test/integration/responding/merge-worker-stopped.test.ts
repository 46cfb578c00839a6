import { knexOf } from '../../../src/db/knex';
import { dashboardFixture } from '../../support/dashboard';
import { pagedService } from '../../support/responding';
import { waitFor } from '../../support/wait';

// A merge whose worker stops halfway (docs/responding.md, "Merge"): asking again finishes it, and
// no alert is lost or doubled, no entry is written twice, and nobody is paged twice.
const fx = dashboardFixture();
const db = () => knexOf(fx.stack.orm);

describe('a merge cut short by its worker stopping', () => {
  it('when the worker stops after the first incident merged and starts again, then asking again merges the rest, each alert once, and pages nobody again', async () => {
    const { ingestUrl, member } = await pagedService(fx.stack);
    const send = async (dedup_key: string) => {
      const res = await fetch(ingestUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: dedup_key, dedup_key }),
      });
      return ((await res.json()) as { incident_id: string }).incident_id;
    };
    const [a, b, c] = [await send('a'), await send('b'), await send('c')];
    await send('b');
    await send('c');
    await waitFor(async () => (await db()('notifications').whereIn('incident_id', [a, b, c])).length === 3, 20_000, 'the three first pages');
    await waitFor(async () => (await db()('alerts').whereIn('incident_id', [a, b, c])).length === 5, 20_000, 'five alerts');
    const alertIds = (await db()('alerts').whereIn('incident_id', [a, b, c]).select('id')).map((r) => r.id).sort();

    const first = fx.api('POST', `/incidents/${a}/merge`, { session: member, body: { incident_ids: [b, c] } });
    await waitFor(async () => (await db()('incidents').where({ id: b }).first()).status === 'RESOLVED', 20_000, 'b merged');
    await fx.stack.worker.stop();
    expect([200, 503]).toContain((await first).status);
    await fx.stack.worker.start();

    const again = await fx.api('POST', `/incidents/${a}/merge`, { session: member, body: { incident_ids: [b, c] } });
    expect(again.status).toBe(200);
    expect(again.body.data.merged.map((m: { id: string; alerts_moved: number }) => [m.id, m.alerts_moved])).toEqual([
      [b, 2],
      [c, 2],
    ]);
    expect((await db()('alerts').where({ incident_id: a }).select('id')).map((r) => r.id).sort()).toEqual(alertIds);
    expect((await db()('incidents').where({ id: a }).first()).alert_count).toBe(5);
    expect(await db()('timeline_entries').where({ incident_id: a, type: 'merged' })).toHaveLength(2);
    for (const id of [b, c]) {
      expect(await db()('timeline_entries').where({ incident_id: id, type: 'status_change', to_status: 'RESOLVED' })).toHaveLength(1);
    }
    expect((await db()('notifications').whereIn('incident_id', [a, b, c]).select('incident_id')).map((n) => n.incident_id).sort()).toEqual([a, b, c].sort());
  });
});
