import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { knexOf } from '../../../src/db/knex';
import { klaxon } from '../../support/cli';
import { dashboard, signUpAndLogIn } from '../../support/dashboard';
import { startTestStack, type TestStack } from '../../support/stack';
import { metricsRegistry, REQUEST_HISTOGRAM_NAME } from '../../../src/services/status';
import { sleep, waitFor } from '../../support/wait';

/** Short, so a test sees several runs: the floor is lowered as MONITOR_MIN_INTERVAL_SECONDS lowers monitors'. */
const INTERVAL_S = 3;
const INTERVAL_MS = INTERVAL_S * 1000;

/** The outside heartbeat monitor (Healthchecks, Better Stack, Cronitor …): a local server recording each ping. */
class HeartbeatMonitor {
  readonly pings: Array<{ at: number; method: string; path: string }> = [];
  private server = http.createServer((req, res) => {
    this.pings.push({ at: Date.now(), method: req.method ?? '', path: req.url ?? '' });
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('OK');
  });
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/ping/0f1e2d3c-watchdog`;
  }
  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
  since(at: number) {
    return this.pings.filter((p) => p.at >= at);
  }
}

const monitor = new HeartbeatMonitor();
let stack: TestStack;
const db = () => knexOf(stack.orm);
const count = async (table: string, where: Record<string, unknown> = {}) => Number((await db()(table).where(where).count({ n: '*' }))[0].n);
/** Requests this process counted on the ingest surface (GET /metrics): the stack runs in the test's process. */
const ingestRequestsCounted = async () => {
  const metric = await metricsRegistry.getSingleMetric(REQUEST_HISTOGRAM_NAME)!.get();
  const values = metric.values as Array<{ metricName?: string; labels: Record<string, unknown>; value: number }>;
  return values.find((v) => v.metricName === `${REQUEST_HISTOGRAM_NAME}_count` && v.labels.surface === 'ingest')?.value ?? 0;
};
/** Until `check` holds, or fails after `timeoutMs`. */
const until = (check: () => boolean | Promise<boolean>, timeoutMs: number, what: string) => waitFor(async () => (await check()) || undefined, timeoutMs, what);
const canaryOrg = async (): Promise<string> => (await db()('watchdog_canary').where({ id: 1 }).first('organization_id')).organization_id;

beforeAll(async () => {
  const url = await monitor.start();
  stack = await startTestStack({ env: { WATCHDOG_URL: url, WATCHDOG_INTERVAL_SECONDS: String(INTERVAL_S), WATCHDOG_MIN_INTERVAL_SECONDS: '1' } });
});
afterAll(async () => {
  await stack?.stop();
  await monitor.stop();
});

describe('the watchdog (docs/reliability.md)', () => {
  it('when the canary passes, then the outside monitor is pinged every interval and /api/status shows the last pass', async () => {
    await until(() => monitor.pings.length >= 3, 8 * INTERVAL_MS, 'three pings');
    expect(monitor.pings.every((p) => p.method === 'GET' && p.path === '/ping/0f1e2d3c-watchdog')).toBe(true);
    const runs = stack.watchdog!.runs;
    expect(runs.filter((r) => r.outcome.result === 'passed').length).toBeGreaterThanOrEqual(3);
    // One ping per run at most, so about an interval apart (a run's verdict comes a path's time into its interval).
    expect(monitor.pings.length).toBeLessThanOrEqual(runs.length);
    const gaps = monitor.pings.slice(1).map((p, i) => p.at - monitor.pings[i].at);
    expect(Math.min(...gaps)).toBeGreaterThan(INTERVAL_MS * 0.3);

    const member = await signUpAndLogIn(stack.urls.app, stack.orm);
    const status = await dashboard(stack.urls.app, 'GET', '/status', { session: member });
    expect(status.status).toBe(200);
    const last = Date.parse(status.body.data.canary.last_success_at);
    expect(Date.now() - last).toBeLessThan(3 * INTERVAL_MS);
    // Passing, and past the two intervals after the start: nothing said of the canary.
    expect(status.body.data.problems.filter((p: string) => p.includes('canary'))).toEqual([]);
  });

  it('when the canary runs, then it shows in no customer’s workspace, pages nobody and leaves a bounded number of rows', async () => {
    const customer = await signUpAndLogIn(stack.urls.app, stack.orm);
    const runsBefore = stack.watchdog!.runs.length;
    const devInboxBefore = await count('dev_deliveries');
    const countedBefore = await ingestRequestsCounted();
    await until(() => stack.watchdog!.runs.length >= runsBefore + 4, 10 * INTERVAL_MS, 'four more runs');
    const org = await canaryOrg();
    // Its alert is no customer's request: the ingest surface's response times (and GET /metrics) leave it out.
    expect(await ingestRequestsCounted()).toBe(countedBefore);

    // No customer's incidents, alerts or in-app notifications; nothing for the dev inbox; no page to a provider.
    expect(Number((await db()('incidents').whereNot({ organization_id: org }).count({ n: '*' }))[0].n)).toBe(0);
    expect(await count('incidents', { organization_id: customer.organizationId })).toBe(0);
    expect(await count('dev_deliveries')).toBe(devInboxBefore);
    expect(await count('user_notifications')).toBe(0);
    const pages = await db()('notifications').where({ organization_id: org }).select('provider', 'status');
    expect(pages.length).toBeGreaterThan(0);
    expect(pages.every((p: { provider: string; status: string }) => p.provider === 'canary' && p.status === 'sent')).toBe(true);
    // The canary's member cannot sign in, and nobody else is in its workspace.
    const members = await db()('memberships as m')
      .join('users as u', 'u.id', 'm.user_id')
      .where({ 'm.organization_id': org })
      .select('u.password_hash', 'u.email');
    expect(members).toEqual([{ password_hash: null, email: 'canary@watchdog.klaxon.invalid' }]);
    // Closed runs are purged: however many runs went by, a handful of incidents at most are left.
    expect(await count('incidents', { organization_id: org })).toBeLessThanOrEqual(3);
    expect(await count('alerts', { organization_id: org })).toBeLessThanOrEqual(3);
  });

  it('when the worker stops, then pings stop within two intervals, and they resume once it is back', async () => {
    await until(() => stack.watchdog!.runs.at(-1)?.outcome.result === 'passed', 4 * INTERVAL_MS, 'a passing run');
    await stack.worker.stop();
    // From here no worker polls: whatever a run sends waits for one.
    const stoppedAt = Date.now();
    // Long enough for several failing runs.
    await sleep(5 * INTERVAL_MS);
    const late = monitor.since(stoppedAt + 2 * INTERVAL_MS + 500);
    expect(late).toEqual([]);
    const failed = stack.watchdog!.runs.filter((r) => r.at > stoppedAt && r.outcome.result === 'failed');
    expect(failed.length).toBeGreaterThanOrEqual(2);
    // /api/status says so too, naming the last pass (the one before the worker stopped).
    const member = await signUpAndLogIn(stack.urls.app, stack.orm);
    const broken = (await dashboard(stack.urls.app, 'GET', '/status', { session: member })).body.data;
    expect(broken.status).toBe('degraded');
    expect(Date.parse(broken.canary.last_success_at)).toBeLessThan(stoppedAt + 1000);
    expect(broken.problems).toContain(`the watchdog canary has not passed since ${broken.canary.last_success_at}: alert → workflow → page is broken somewhere`);

    const restartedAt = Date.now();
    await stack.worker.start();
    await until(() => monitor.since(restartedAt).length >= 2, 8 * INTERVAL_MS, 'pings again');
    const healed = (await dashboard(stack.urls.app, 'GET', '/status', { session: member })).body.data;
    expect(healed.problems.filter((p: string) => p.includes('canary'))).toEqual([]);
    // The failed runs' incidents are closed once the path works again, then purged.
    const org = await canaryOrg();
    await until(async () => (await count('incidents', { organization_id: org })) <= 3, 10 * INTERVAL_MS, 'leftovers purged');
  });
});

describe('a bad watchdog setting', () => {
  it('when WATCHDOG_URL or WATCHDOG_INTERVAL_SECONDS is wrong, then every role stops at startup naming the variable, never echoing the URL', async () => {
    for (const command of ['api', 'worker']) {
      const res = await klaxon([command], { WATCHDOG_URL: 'http://hc-ping.com/secret-check-uuid' }, { testDatabase: false });
      expect({ command, code: res.code }).toEqual({ command, code: 1 });
      expect(res.stderr).toMatch(/invalid configuration: WATCHDOG_URL: must be an https:\/\/ URL/);
      expect(res.stderr).not.toContain('secret-check-uuid');
    }
    const interval = await klaxon(['api'], { WATCHDOG_URL: 'https://hc-ping.com/x', WATCHDOG_INTERVAL_SECONDS: '5' }, { testDatabase: false });
    expect(interval.code).toBe(1);
    expect(interval.stderr).toMatch(/invalid configuration: WATCHDOG_INTERVAL_SECONDS: must be at least 10/);
  });
});
