import { randomBytes, randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { retentionCutoffs } from '../../../src/domain/retention';
import { purgeExpired } from '../../../src/services/retention/purge';
import { dashboardFixture, expectDashboardError, workspaceWithRoles } from '../../support/dashboard';

const fx = dashboardFixture();
const { api } = fx;
const db = () => knexOf(fx.stack.orm);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(Date.now() - ms);

/** A workspace with a service, for monitors and heartbeats inserted as their engineers' code writes them. */
async function workspace() {
  const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
  const serviceId = randomUUID();
  await db()('services').insert({
    id: serviceId,
    organization_id: ws.organizationId,
    team_id: randomUUID(),
    name: 'Checkout',
    created_at: ago(60 * DAY),
    updated_at: ago(60 * DAY),
  });
  return { ...ws, serviceId };
}
type Ws = Awaited<ReturnType<typeof workspace>>;

async function monitor(ws: Ws, name: string, checks: Array<{ msAgo: number; ok: boolean }>) {
  const id = randomUUID();
  await db()('monitors').insert({
    id,
    organization_id: ws.organizationId,
    service_id: ws.serviceId,
    name,
    type: 'HTTP',
    target: 'https://example.test/health',
    interval_seconds: 60,
    status: 'ACTIVE',
    created_at: ago(40 * DAY),
    updated_at: ago(40 * DAY),
  });
  if (checks.length) {
    await db()('monitor_checks').insert(
      checks.map((c) => ({
        id: randomUUID(),
        monitor_id: id,
        organization_id: ws.organizationId,
        checked_at: ago(c.msAgo),
        ok: c.ok,
        status_code: c.ok ? 200 : 503,
        latency_ms: 40,
        error: c.ok ? null : 'unexpected status 503',
      })),
    );
  }
  return id;
}

async function heartbeat(ws: Ws, name: string, opts: { createdMsAgo?: number; paused?: boolean } = {}) {
  const id = randomUUID();
  await db()('heartbeats').insert({
    id,
    organization_id: ws.organizationId,
    service_id: ws.serviceId,
    name,
    token_hash: randomBytes(32).toString('hex'),
    period_seconds: 300,
    grace_seconds: 60,
    status: opts.paused ? 'PAUSED' : 'ACTIVE',
    last_ping_at: null,
    created_at: ago(opts.createdMsAgo ?? 40 * DAY),
  });
  return id;
}

let incidentNumber = 0;
/** A missed-check-in incident as the heartbeat activities open it (dedup key `heartbeat:<id>`). */
async function missed(ws: Ws, dedupKey: string, from: number, to: number | null, ended: 'alerts_closed_at' | 'resolved_at' | 'closed_at' = 'alerts_closed_at') {
  const now = new Date();
  await db()('incidents').insert({
    id: randomUUID(),
    organization_id: ws.organizationId,
    number: ++incidentNumber,
    service_id: ws.serviceId,
    owning_team_id: randomUUID(),
    title: 'Heartbeat missed',
    severity: 'HIGH',
    status: to === null ? 'TRIGGERED' : 'RESOLVED',
    dedup_key: dedupKey,
    alert_count: 1,
    last_seq: 1,
    created_at: ago(from),
    updated_at: now,
    ...(to === null ? {} : { [ended]: ago(to) }),
  });
}

const uptime = async (ws: Ws) => {
  const res = await api('GET', '/uptime', { session: ws.as.MEMBER });
  expect(res.status).toBe(200);
  return res.body.data;
};

describe('GET /api/uptime: monitors', () => {
  it('when a monitor has checks over the last 35 days, then each window is its ok checks ÷ its checks; one without checks is null', async () => {
    const ws = await workspace();
    const id = await monitor(ws, 'API', [
      // last 24 h: 3 of 4 ok
      ...[1, 2, 3].map((h) => ({ msAgo: h * HOUR, ok: true })),
      { msAgo: 20 * HOUR, ok: false },
      // 2 to 6 days ago: 4 of 6 ok → 7 d: 7 of 10
      ...[2, 3, 4, 5].map((d) => ({ msAgo: d * DAY, ok: true })),
      { msAgo: 5.5 * DAY, ok: false },
      { msAgo: 6 * DAY, ok: false },
      // 10 to 29 days ago: 10 ok → 30 d: 17 of 20
      ...Array.from({ length: 10 }, (_, i) => ({ msAgo: (10 + 2 * i) * DAY, ok: true })),
      // 35 days ago: outside every window
      ...Array.from({ length: 5 }, () => ({ msAgo: 35 * DAY, ok: false })),
    ]);
    const silent = await monitor(ws, 'New', []);
    const body = await uptime(ws);
    expect(body.monitors.map(({ daily: _daily, ...m }: { daily: unknown }) => m)).toEqual([
      { id, name: 'API', status: 'ACTIVE', checks_30d: 20, availability: { '24h': 0.75, '7d': 0.7, '30d': 0.85 } },
      { id: silent, name: 'New', status: 'ACTIVE', checks_30d: 0, availability: { '24h': null, '7d': null, '30d': null } },
    ]);
    // The uptime bar: 30 blocks of 24 h, oldest first; the newest holds the last 24 h's checks.
    const daily = body.monitors[0].daily as Array<{ from: string; to: string; availability: number | null }>;
    expect(daily).toHaveLength(30);
    expect(Date.parse(daily[29].to) - Date.parse(daily[29].from)).toBe(DAY);
    expect(daily[28].to).toBe(daily[29].from);
    const byDaysAgo = (n: number) => daily[29 - n].availability;
    expect(byDaysAgo(0)).toBe(0.75);
    expect(byDaysAgo(1)).toBeNull();
    expect([byDaysAgo(2), byDaysAgo(3), byDaysAgo(4)]).toEqual([1, 1, 1]);
    expect(byDaysAgo(5)).toBe(0.5); // 5 d ok, 5.5 d failed
    expect(byDaysAgo(6)).toBe(0);
    expect(byDaysAgo(10)).toBe(1);
    expect(body.monitors[1].daily.every((d: { availability: number | null }) => d.availability === null)).toBe(true);
    expect(body.process_uptime_seconds).toEqual(expect.any(Number));
    expect(body.system_uptime_seconds).toBeGreaterThanOrEqual(body.process_uptime_seconds);
  });

  it('when another workspace has monitors and heartbeats, then mine do not list them', async () => {
    const mine = await workspace();
    const theirs = await workspace();
    await monitor(theirs, 'Theirs', [{ msAgo: HOUR, ok: false }]);
    await heartbeat(theirs, 'Theirs');
    const body = await uptime(mine);
    expect({ monitors: body.monitors, heartbeats: body.heartbeats }).toEqual({ monitors: [], heartbeats: [] });
  });

  it('when the hourly purge runs, then checks older than 31 days go and newer ones stay', async () => {
    const ws = await workspace();
    const id = await monitor(ws, 'Old', [
      { msAgo: 32 * DAY, ok: true },
      { msAgo: 30 * DAY, ok: true },
    ]);
    const { deleted } = await purgeExpired(db(), retentionCutoffs(new Date()));
    expect(deleted.monitor_checks).toBeGreaterThanOrEqual(1);
    expect(await db()('monitor_checks').where({ monitor_id: id }).count({ n: '*' })).toEqual([{ n: '1' }]);
  });
});

describe('GET /api/uptime: heartbeats', () => {
  it('when a heartbeat’s missed-check-in incidents were open, then each window is 1 − time down ÷ window', async () => {
    const ws = await workspace();
    const id = await heartbeat(ws, 'nightly backup');
    await missed(ws, `heartbeat:${id}`, 5 * HOUR, 3 * HOUR); // 2 h, checked in again
    await missed(ws, `heartbeat:${id}`, 3 * DAY + 12 * HOUR, 3 * DAY, 'resolved_at'); // 12 h, resolved by a person
    await missed(ws, `heartbeat:${id}`, 20 * DAY + 24 * HOUR, 20 * DAY, 'closed_at'); // 24 h
    await missed(ws, `heartbeat:${id}`, 40 * DAY, 39 * DAY); // before every window
    await missed(ws, 'something-else', 10 * HOUR, null); // not this heartbeat's
    const [hb] = (await uptime(ws)).heartbeats;
    expect(hb).toMatchObject({ id, name: 'nightly backup', paused: false });
    expect(hb.availability['24h']).toBeCloseTo(1 - 2 / 24, 4);
    expect(hb.availability['7d']).toBeCloseTo(1 - 14 / (7 * 24), 4);
    expect(hb.availability['30d']).toBeCloseTo(1 - 38 / (30 * 24), 4);
    // Per 24 hours: down 2 h in the last day, 12 h three days ago, a whole day around 20 days ago.
    const daily = (hb.daily as Array<{ availability: number | null }>).map((d) => d.availability);
    expect(daily[29]).toBeCloseTo(1 - 2 / 24, 4);
    expect(daily[29 - 3]).toBeCloseTo(0.5, 3);
    expect(daily[29 - 20]).toBeCloseTo(0, 3);
    expect(daily[29 - 1]).toBe(1);
  });

  it('when its incident is still open, then it is down until now', async () => {
    const ws = await workspace();
    const id = await heartbeat(ws, 'queue consumer');
    await missed(ws, `heartbeat:${id}`, 6 * HOUR, null);
    const [hb] = (await uptime(ws)).heartbeats;
    expect(hb.availability['24h']).toBeCloseTo(0.75, 3);
  });

  it('when it was created 12 h ago, then the windows count only the time since', async () => {
    const ws = await workspace();
    const id = await heartbeat(ws, 'new job', { createdMsAgo: 12 * HOUR });
    await missed(ws, `heartbeat:${id}`, 3 * HOUR, 0);
    const [hb] = (await uptime(ws)).heartbeats;
    for (const w of ['24h', '7d', '30d']) expect(hb.availability[w]).toBeCloseTo(0.75, 3);
    // Days before it existed show no data on the bar.
    expect(hb.daily.slice(0, 29).every((d: { availability: number | null }) => d.availability === null)).toBe(true);
  });

  it('when it is paused, then the paused time counts as neither up nor down', async () => {
    const ws = await workspace();
    const id = await heartbeat(ws, 'paused job', { paused: true });
    await db()('audit_log').insert({
      id: randomUUID(),
      organization_id: ws.organizationId,
      actor_user_id: ws.owner.userId,
      actor_kind: 'user',
      actor_label: ws.owner.email,
      action: 'heartbeat.pause',
      target_type: 'heartbeat',
      target_id: id,
      ip: null,
      details: JSON.stringify({ name: 'paused job' }),
      created_at: ago(12 * HOUR),
    });
    await missed(ws, `heartbeat:${id}`, 16 * HOUR, 8 * HOUR);
    const [hb] = (await uptime(ws)).heartbeats;
    expect(hb.paused).toBe(true);
    // Watched: the 12 h before the pause; down in them: 4 h.
    expect(hb.availability['24h']).toBeCloseTo(1 - 4 / 12, 3);
  });

  it('when the query has an unknown parameter, then 400 naming it', async () => {
    const ws = await workspace();
    const res = await api('GET', '/uptime?monitor=1', { session: ws.owner });
    expectDashboardError(res, 400, 'invalid_request');
    expect(res.body.error).toContain('monitor');
  });
});
