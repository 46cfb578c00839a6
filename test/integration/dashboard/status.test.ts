import { randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { retentionCutoffs } from '../../../src/domain/retention';
import { purgeExpired } from '../../../src/services/retention/purge';
import { flushRequestMetrics, RequestRecorder, REQUEST_HISTOGRAM_NAME, responseTimes, systemStatus } from '../../../src/services/status';
import { ALL_ROLES, dashboardFixture, expectDashboardError, workspaceWithRoles } from '../../support/dashboard';
import { request } from '../../support/http';
import { TEST_SECRET } from '../../support/stack';

const fx = dashboardFixture();
const { api } = fx;
const db = () => knexOf(fx.stack.orm);
let ws: Awaited<ReturnType<typeof workspaceWithRoles>>;

beforeAll(async () => {
  ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
});

/** A page that failed on a channel, as the paging activities record it. */
async function failedPage(organizationId: string, channel: string, error: string, at = new Date()) {
  await db()('notifications').insert({
    id: randomUUID(),
    organization_id: organizationId,
    incident_id: randomUUID(),
    channel,
    target: '+14155550100',
    provider: 'dev_inbox',
    status: 'failed',
    error,
    created_at: at,
    updated_at: at,
  });
}

describe('GET /api/status', () => {
  it('when Postgres, Temporal and a worker are up and nothing is backed up, then it is ok with every part', async () => {
    const res = await api('GET', '/status', { session: ws.owner });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: 'ok',
      problems: [],
      postgres: { reachable: true, latency_ms: expect.any(Number) },
      temporal: { reachable: true },
      workers: { polling: true },
      outbox: { pending: expect.any(Number), parked: 0 },
    });
    // No provider credentials in tests: every channel goes to the dev inbox, but browser push, whose VAPID keys are generated.
    expect(res.body.data.channels.map((c: { channel: string; provider: string }) => c.provider)).toEqual(
      res.body.data.channels.map((c: { channel: string }) => (c.channel === 'push_web' ? 'web-push' : 'dev_inbox')),
    );
    expect(res.body.data.channels.map((c: { channel: string }) => c.channel)).toEqual(expect.arrayContaining(['sms', 'voice', 'email']));
  });

  it('when the outbox holds a long-pending and a parked message, then it shows them and is degraded', async () => {
    const old = new Date(Date.now() - 300_000);
    const pending = {
      id: randomUUID(),
      incident_id: randomUUID(),
      event_id: randomUUID(),
      kind: 'opened',
      created_at: old,
      attempts: 3,
      last_error: 'Temporal unavailable',
      next_attempt_at: new Date(Date.now() + 86_400_000),
    };
    const parked = {
      id: randomUUID(),
      incident_id: randomUUID(),
      event_id: randomUUID(),
      kind: 'opened',
      created_at: old,
      attempts: 10,
      last_error: 'Temporal unavailable',
      parked_at: new Date(),
    };
    await db()('ingest_outbox').insert([pending, parked]);
    try {
      const res = await api('GET', '/status', { session: ws.as.MEMBER });
      expect(res.body.data.status).toBe('degraded');
      expect(res.body.data.outbox.pending).toBeGreaterThanOrEqual(1);
      expect(res.body.data.outbox.parked).toBe(1);
      expect(res.body.data.outbox.oldest_pending_age_seconds).toBeGreaterThanOrEqual(300);
      expect(res.body.data.problems).toEqual(
        expect.arrayContaining([expect.stringMatching(/1 ingestion outbox message\(s\) parked/), expect.stringMatching(/oldest pending .* waits for \d+ s/)]),
      );
    } finally {
      await db()('ingest_outbox').whereIn('id', [pending.id, parked.id]).delete();
    }
  });

  it('when a page failed on a channel, then that channel shows the error and when, only to its workspace', async () => {
    const mine = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const at = new Date(Date.now() - 60_000);
    await failedPage(mine.organizationId, 'sms', 'older failure', new Date(Date.now() - 120_000));
    await failedPage(mine.organizationId, 'sms', 'the number is not reachable', at);
    const res = await api('GET', '/status', { session: mine.owner });
    const sms = res.body.data.channels.find((c: { channel: string }) => c.channel === 'sms');
    expect(sms).toEqual({
      channel: 'sms',
      provider: 'dev_inbox',
      last_error: { error: 'the number is not reachable', at: at.toISOString() },
      last_success_at: null,
    });
    expect(res.body.data.status).toBe('degraded');
    expect(res.body.data.problems).toContain('the newest sms page failed (dev_inbox)');
    // Another workspace's status does not show it.
    const theirs = await api('GET', '/status', { session: ws.owner });
    expect(theirs.body.data.channels.find((c: { channel: string }) => c.channel === 'sms').last_error).toBeNull();
  });

  it('when Temporal cannot be reached, then it is down (nothing can page), and a worker missing alone is degraded', async () => {
    const up = { postgres: true, temporal: true, worker: true };
    const status = (checks: typeof up) =>
      systemStatus(
        { orm: fx.stack.orm, notify: fx.stack.config.notify, servingHealth: async () => ({ ready: false, checks, missing: [] }) },
        ws.organizationId,
      );
    const down = await status({ ...up, temporal: false, worker: false });
    expect(down.status).toBe('down');
    expect(down.problems).toContain('Temporal is not reachable');
    const noWorker = await status({ ...up, worker: false });
    expect(noWorker.status).toBe('degraded');
    expect(noWorker.problems).toEqual([expect.stringMatching(/no worker is polling/)]);
  });

  it('when the watchdog is configured and its canary never passed, then it is degraded two intervals after the watchdog started; without it, nothing', async () => {
    const up = async () => ({ ready: true, checks: { postgres: true, temporal: true, worker: true }, missing: [] });
    const status = (watchdog?: { intervalSeconds: number; startedAt: Date }) =>
      systemStatus({ orm: fx.stack.orm, notify: fx.stack.config.notify, servingHealth: up, watchdog }, ws.organizationId);
    // Other tests here leave outbox messages and failed pages behind: only the canary's lines count.
    const canaryLines = (problems: string[]) => problems.filter((p) => p.includes('watchdog canary'));
    // This file's stack runs no watchdog: its database has no canary row, no success.
    const startedAt = new Date(Date.now() - 21_000);
    const stale = await status({ intervalSeconds: 10, startedAt });
    expect(stale.status).toBe('degraded');
    expect(stale.canary.last_success_at).toBeNull();
    expect(canaryLines(stale.problems)).toEqual([
      `the watchdog canary has not passed since the watchdog started (${startedAt.toISOString()}): alert → workflow → page is broken somewhere`,
    ]);
    expect(canaryLines((await status({ intervalSeconds: 10, startedAt: new Date(Date.now() - 15_000) })).problems)).toEqual([]);
    expect(canaryLines((await status()).problems)).toEqual([]);
    // The route without WATCHDOG_URL says nothing of it either.
    expect(canaryLines((await api('GET', '/status', { session: ws.owner })).body.data.problems)).toEqual([]);
  });

  it('when the query has an unknown parameter, then 400 naming it', async () => {
    const res = await api('GET', '/status?verbose=1', { session: ws.owner });
    expectDashboardError(res, 400, 'invalid_request');
    expect(res.body.error).toContain('verbose');
  });
});

describe('who may read the operational routes', () => {
  it.each(ALL_ROLES)('when a %s reads /status, /response-time and /uptime, then each answers 200 (it shows no secrets)', async (role) => {
    for (const path of ['/status', '/response-time', '/uptime']) {
      const res = await api('GET', path, { session: ws.as[role] });
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      expect(JSON.stringify(res.body)).not.toContain(TEST_SECRET);
    }
  });
});

describe('GET /api/response-time', () => {
  it('when each surface answered requests, then each has counts and p50 ≤ p95 ≤ p99 over every window', async () => {
    for (const base of Object.values(fx.stack.urls)) {
      for (let i = 0; i < 3; i++) expect((await request('GET', `${base}/healthz`)).status).toBe(200);
    }
    const res = await api('GET', '/response-time', { session: ws.owner });
    expect(res.status).toBe(200);
    expect(res.body.data.windows).toEqual(['5m', '1h', '24h']);
    for (const surface of ['app', 'ingest', 'api-key']) {
      for (const window of ['5m', '1h', '24h']) {
        const s = res.body.data.surfaces[surface][window];
        expect({ surface, window, counted: s.count >= 3 }).toEqual({ surface, window, counted: true });
        expect(s.p50_ms).toBeLessThanOrEqual(s.p95_ms);
        expect(s.p95_ms).toBeLessThanOrEqual(s.p99_ms);
      }
    }
  });

  it('when two processes flush the same minute, then the route counts both: their buckets add up', async () => {
    const count = async () => (await api('GET', '/response-time', { session: ws.owner })).body.data.surfaces['api-key']['5m'].count as number;
    const before = await count();
    const a = new RequestRecorder();
    const b = new RequestRecorder();
    const now = Date.now();
    for (let i = 0; i < 4; i++) a.observe('api-key', 3, now);
    for (let i = 0; i < 3; i++) b.observe('api-key', 3000, now);
    expect(await flushRequestMetrics(fx.stack.orm, a)).toBe(4);
    expect(await flushRequestMetrics(fx.stack.orm, b)).toBe(3);
    expect(await count()).toBe(before + 7);
  });

  it('when two flushers write the same minute, then one row per bucket holds the sum and quantiles come from all of them', async () => {
    const minute = Date.UTC(2020, 0, 1, 12, 0);
    const a = new RequestRecorder();
    const b = new RequestRecorder();
    for (let i = 0; i < 50; i++) a.observe('ingest', 20, minute + 1_000); // (10, 25] ms
    for (let i = 0; i < 45; i++) b.observe('ingest', 20, minute + 2_000);
    for (let i = 0; i < 5; i++) b.observe('ingest', 700, minute + 3_000); // (500, 1000] ms
    await flushRequestMetrics(fx.stack.orm, a);
    await flushRequestMetrics(fx.stack.orm, b);
    const rows = await db()('request_metrics')
      .where({ surface: 'ingest', minute: new Date(minute) })
      .orderBy('le_ms')
      .select('le_ms', 'count');
    expect(rows).toEqual([
      { le_ms: 25, count: 95 },
      { le_ms: 1000, count: 5 },
    ]);
    const at = await responseTimes(fx.stack.orm, new Date(minute + 30_000));
    expect(at.ingest['5m']).toEqual({ count: 100, p50_ms: 17.89, p95_ms: 25, p99_ms: 900, mean_ms: 54 });
    expect(at.app['5m'].count).toBe(0);
  });

  it('when the query has an unknown parameter, then 400 naming it', async () => {
    const res = await api('GET', '/response-time?window=1h', { session: ws.owner });
    expectDashboardError(res, 400, 'invalid_request');
    expect(res.body.error).toContain('window');
  });

  it('when the hourly purge runs, then buckets older than 25 h go and newer ones stay', async () => {
    const old = new Date(Math.floor((Date.now() - 26 * 3_600_000) / 60_000) * 60_000);
    const recent = new Date(Math.floor((Date.now() - 24 * 3_600_000) / 60_000) * 60_000);
    await db()('request_metrics').insert([
      { surface: 'app', minute: old, le_ms: 5, count: 1, sum_ms: 1 },
      { surface: 'app', minute: recent, le_ms: 5, count: 1, sum_ms: 1 },
    ]);
    const { deleted } = await purgeExpired(db(), retentionCutoffs(new Date()));
    expect(deleted.request_metrics).toBeGreaterThanOrEqual(1);
    const kept = await db()('request_metrics').where({ surface: 'app' }).whereIn('minute', [old, recent]).pluck('minute');
    expect(kept.map((m) => new Date(m).getTime())).toEqual([recent.getTime()]);
  });
});

describe('GET /metrics', () => {
  it('when scraped without a session, then it answers Prometheus text with the per-surface request histogram', async () => {
    await request('GET', `${fx.stack.urls.app}/healthz`);
    const res = await fetch(`${fx.stack.urls.app}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toContain(`# TYPE ${REQUEST_HISTOGRAM_NAME} histogram`);
    expect(text).toMatch(new RegExp(`${REQUEST_HISTOGRAM_NAME}_bucket\\{le="0.005",surface="app"\\} \\d+`));
    expect(text).toMatch(new RegExp(`${REQUEST_HISTOGRAM_NAME}_count\\{surface="ingest"\\} \\d+`));
    expect(text).not.toContain(TEST_SECRET);
    expect(text).not.toContain('postgres://');
  });
});
