import { knexOf } from '../../../src/db/knex';
import { createSource } from '../../../src/services/ingest/sources';
import { auditLog, catalogWorkspaceWithService, type CatalogWorkspace } from '../../support/catalog';
import { dashboardFixture } from '../../support/dashboard';
import { request } from '../../support/http';

/** Grouping rules, their replay, and sources' storm guards through the dashboard's /api (docs/grouping.md). */
const fx = dashboardFixture();
const { api } = fx;
let ws: CatalogWorkspace;
let serviceId: string;

beforeAll(async () => {
  ({ ws, serviceId } = await catalogWorkspaceWithService(fx.stack, 'Storage'));
});

const admin = () => ws.as.ACCOUNT_ADMIN;
const byHost = { name: 'disk by host', match: [{ field: 'title', op: 'contains', value: 'disk' }], group_by: ['details.host'], window_seconds: 600 };
const stored = async () => (await api('GET', `/services/${serviceId}/grouping`, { session: ws.as.MEMBER })).body.data.rules;

describe('grouping rules', () => {
  it('when an admin saves rules, then any member reads them in order; a Member may not change them', async () => {
    const saved = await api('PUT', `/services/${serviceId}/grouping`, {
      session: admin(),
      body: { rules: [byHost, { ...byHost, name: 'all', match: [], group_by: [] }] },
    });
    expect(saved.status).toBe(200);
    expect(await stored()).toEqual([
      { ...byHost, page_after: null },
      { ...byHost, name: 'all', match: [], group_by: [], page_after: null },
    ]);
    const [entry] = await auditLog(fx.stack, admin(), 'service.grouping.update');
    expect(entry).toMatchObject({ target: { type: 'service', id: serviceId }, details: { rules: ['disk by host', 'all'] } });
    const refused = await api('PUT', `/services/${serviceId}/grouping`, { session: ws.as.MEMBER, body: { rules: [] } });
    expect(refused.status).toBe(403);
    expect(await stored()).toHaveLength(2);
  });

  it('when a rule has a non-linear pattern or an unknown field, then 400 names the field and nothing changes', async () => {
    const before = await stored();
    const slow = await api('PUT', `/services/${serviceId}/grouping`, {
      session: admin(),
      body: { rules: [{ ...byHost, match: [{ field: 'title', op: 'matches', value: '(a|a)*$' }] }] },
    });
    expect(slow.status).toBe(400);
    expect(slow.body.error).toMatch(/rules\.0\.match\.0\.value: can take super-linear time/);
    const field = await api('PUT', `/services/${serviceId}/grouping`, { session: admin(), body: { rules: [{ ...byHost, group_by: ['host'] }] } });
    expect(field.status).toBe(400);
    expect(field.body.error).toMatch(/rules\.0\.group_by\.0: must be title, severity, source/);
    expect(await stored()).toEqual(before);
  });

  it('when the live rules are replayed over the range, then the replay equals what ingestion did', async () => {
    await api('PUT', `/services/${serviceId}/grouping`, { session: admin(), body: { rules: [byHost] } });
    const source = await createSource(fx.stack.orm, { organizationId: ws.organizationId, serviceId, name: 'replayed', ingestBaseUrl: fx.stack.urls.ingest });
    const from = new Date(Date.now() - 1000).toISOString();
    const hosts = ['a', 'b', 'a', 'c', 'a', 'b'];
    for (const [i, host] of hosts.entries()) {
      expect((await request('POST', source.ingest_url, { body: { title: `disk full ${i}`, metadata: { host } } })).status).toBe(202);
    }
    expect((await request('POST', source.ingest_url, { body: { title: 'cpu high', metadata: { host: 'a' } } })).status).toBe(202);
    const to = new Date(Date.now() + 1000).toISOString();
    const real = await knexOf(fx.stack.orm)('incidents').where({ service_id: serviceId }).andWhere('created_at', '>=', from).select('group_key', 'alert_count');
    expect(real).toHaveLength(4);

    const live = await api('POST', `/services/${serviceId}/grouping/simulate`, { session: ws.as.MEMBER, body: { rules: [byHost], from, to } });
    expect(live.status).toBe(200);
    const replay = live.body.data;
    expect(replay).toMatchObject({
      incidents_before: 4,
      incidents_after: 4,
      pages_before: replay.pages_after,
      split_lost: [],
      truncated: false,
      alerts_replayed: 7,
    });
    const realGroups = real
      .filter((r: { group_key: string | null }) => r.group_key)
      .map((r: { group_key: string; alert_count: number }) => [r.group_key, r.alert_count]);
    expect(replay.groups.map((g: { key: string; alerts: number }) => [g.key, g.alerts]).sort()).toEqual(realGroups.sort());

    // The incident shows its rule and key, and its alerts page past the first ones.
    const host = (await knexOf(fx.stack.orm)('incidents').where({ service_id: serviceId, group_key: 'details.host=a' }).first('id')).id;
    const shown = await api('GET', `/incidents/${host}`, { session: ws.as.MEMBER });
    expect(shown.body.data).toMatchObject({ grouping: { rule: 'disk by host', key: 'details.host=a' }, alert_count: 3 });
    const page = await api('GET', `/incidents/${host}/alerts?limit=2&offset=2`, { session: ws.as.MEMBER });
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(1);
    expect(page.body.meta).toEqual({ total: 3, limit: 2, offset: 2 });

    // Without rules, every alert would have opened its own incident.
    const none = await api('POST', `/services/${serviceId}/grouping/simulate`, { session: ws.as.MEMBER, body: { rules: [], from, to } });
    expect(none.body.data).toMatchObject({ incidents_before: 4, incidents_after: 7, groups: [] });
  });

  it('when the range is over 90 days or backwards, then 400 names to', async () => {
    const far = await api('POST', `/services/${serviceId}/grouping/simulate`, {
      session: ws.as.MEMBER,
      body: { rules: [], from: '2026-01-01T00:00:00Z', to: '2026-04-02T00:00:00Z' },
    });
    expect(far.status).toBe(400);
    expect(far.body.error).toMatch(/to: must be at most 90 days after from/);
    const backwards = await api('POST', `/services/${serviceId}/grouping/simulate`, {
      session: ws.as.MEMBER,
      body: { rules: [], from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' },
    });
    expect(backwards.status).toBe(400);
  });
});

describe('storm guard on sources', () => {
  it('when a source follows the default, sets its own, or turns it off, then its JSON says so', async () => {
    const source = await createSource(fx.stack.orm, { organizationId: ws.organizationId, serviceId, name: 'guarded', ingestBaseUrl: fx.stack.urls.ingest });
    const read = async () => (await api('GET', `/sources/${source.id}`, { session: ws.as.MEMBER })).body.data;
    expect(await read()).toMatchObject({ storm: { max_new_incidents: 50, within_seconds: 60, quiet_seconds: 120 }, in_storm: false });
    const own = { max_new_incidents: 5, within_seconds: 30, quiet_seconds: 60 };
    expect((await api('PUT', `/sources/${source.id}`, { session: admin(), body: { storm: own } })).status).toBe(200);
    expect((await read()).storm).toEqual(own);
    const bad = await api('PUT', `/sources/${source.id}`, { session: admin(), body: { storm: { ...own, quiet_seconds: 0 } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/storm\.quiet_seconds/);
    expect((await read()).storm).toEqual(own);
    expect((await api('PUT', `/sources/${source.id}`, { session: admin(), body: { storm: null } })).status).toBe(200);
    expect(await read()).toMatchObject({ storm: null, in_storm: false });
  });
});
