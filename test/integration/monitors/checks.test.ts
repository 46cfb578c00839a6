import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { knexOf } from '../../../src/db/knex';
import { createMonitor } from '../../../src/services/workspace/catalog';
import { monitorStateQuery, monitorWorkflowId, type MonitorWorkflowInput } from '../../../src/contracts/workflows';
import { catalogWorkspace, type CatalogWorkspace } from '../../support/catalog';
import { dashboard } from '../../support/dashboard';
import { request } from '../../support/http';
import { startTestStack, type TestStack } from '../../support/stack';
import { sleep, waitFor } from '../../support/wait';
import { tokenFor } from '../../support/workspace';

/**
 * Monitors checking a local site that goes down and comes back. The stack allows private targets
 * (the site is on 127.0.0.1) and intervals of 2 s (MONITOR_MIN_INTERVAL_SECONDS, test only).
 */
let stack: TestStack;
let ws: CatalogWorkspace;
let serviceId: string;

/** The local site: healthy or answering 503, per path. */
const down = new Set<string>();
const hits = new Map<string, number>();
const site = http.createServer((req, res) => {
  const path = req.url ?? '/';
  hits.set(path, (hits.get(path) ?? 0) + 1);
  if (down.has(path)) res.writeHead(503).end('maintenance');
  else res.writeHead(200).end('status: all good');
});
let siteUrl: string;

beforeAll(async () => {
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  stack = await startTestStack({ env: { MONITOR_ALLOW_PRIVATE: 'true', MONITOR_MIN_INTERVAL_SECONDS: '2' } });
  ws = await catalogWorkspace(stack);
  serviceId = (await api('POST', '/services', { body: { name: 'Website', team_id: ws.team.id } })).body.data.id;
});
afterAll(async () => {
  await stack?.stop();
  await new Promise<void>((r) => site.close(() => r()));
});

const api = (method: string, path: string, opts: { body?: unknown } = {}) => dashboard(stack.urls.app, method, path, { session: ws.as.ACCOUNT_ADMIN, ...opts });
const newMonitor = async (path: string, over: Record<string, unknown> = {}) => {
  const res = await api('POST', '/monitors', {
    body: { service_id: serviceId, name: `site ${path}`, url: `${siteUrl}${path}`, interval_seconds: 2, timeout_seconds: 1, failure_threshold: 2, ...over },
  });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; name: string };
};
const monitor = async (id: string) => (await api('GET', `/monitors/${id}`)).body.data;
const checks = (id: string) => knexOf(stack.orm)('monitor_checks').where({ monitor_id: id }).orderBy('checked_at');
const incidentOf = (id: string) =>
  knexOf(stack.orm)('incidents')
    .where({ dedup_key: `monitor:${id}` })
    .first();
const workflow = (id: string) => stack.temporal.workflow.getHandle(monitorWorkflowId(id));

describe('a monitor watching a site', () => {
  it('when the site fails failure_threshold checks in a row, then an incident opens on the service; when it recovers, the incident resolves', async () => {
    const m = await newMonitor('/shop');
    await waitFor(async () => (await monitor(m.id)).state === 'UP', 15_000, 'the first check');

    down.add('/shop');
    const incident = await waitFor(() => incidentOf(m.id), 20_000, 'the monitor’s incident');
    expect(incident).toMatchObject({ service_id: serviceId, title: `Monitor "site /shop" is down: unexpected status 503 (expected 2xx)`, severity: 'HIGH' });
    // Two failed checks in a row, the last at or before the incident: not one.
    const recorded = await checks(m.id);
    const failedBefore = recorded.filter((c) => !c.ok && new Date(c.checked_at) <= new Date(incident.created_at));
    expect(failedBefore.length).toBeGreaterThanOrEqual(2);
    expect(failedBefore.at(-1)).toMatchObject({ ok: false, status_code: 503, error: 'unexpected status 503 (expected 2xx)', latency_ms: expect.any(Number) });
    const downView = await monitor(m.id);
    expect(downView).toMatchObject({
      state: 'DOWN',
      open_incident_id: incident.id,
      last_check: { ok: false, status_code: 503, error: 'unexpected status 503 (expected 2xx)' },
    });
    expect(downView.consecutive_failures).toBeGreaterThanOrEqual(2);
    // The incident's workflow runs as for any incident (it pages through the service's policy).
    await waitFor(
      async () => (await stack.temporal.workflow.getHandle(`incident-${incident.id}`).describe()).status.name === 'RUNNING',
      15_000,
      'the incident workflow',
    );

    down.delete('/shop');
    await waitFor(async () => (await incidentOf(m.id)).status === 'RESOLVED', 20_000, 'the incident resolved');
    const upView = await monitor(m.id);
    expect(upView).toMatchObject({ state: 'UP', consecutive_failures: 0, open_incident_id: null, last_check: { ok: true, status_code: 200, error: null } });
    expect(upView.uptime_24h).toBeGreaterThan(0);
    expect(upView.uptime_24h).toBeLessThan(100);
    // One incident for the outage, not one per failed check.
    expect(
      await knexOf(stack.orm)('incidents')
        .where({ dedup_key: `monitor:${m.id}` })
        .count({ n: '*' }),
    ).toEqual([{ n: '1' }]);
  });

  it('when the customer API reads the monitor, then it shows its URL, status, last check and uptime (read-only)', async () => {
    const m = await newMonitor('/api-read');
    await waitFor(async () => (await monitor(m.id)).last_check !== null, 15_000, 'the first check');
    const token = await tokenFor(stack.orm, ws.organizationId, ws.owner.email, 'READ_WRITE');
    const base = `${stack.urls.app}/api/v1/organizations/${ws.organizationId}/monitors`;
    const one = await request('GET', `${base}/${m.id}`, { token });
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual({
      id: m.id,
      service_id: serviceId,
      name: 'site /api-read',
      type: 'http',
      url: `${siteUrl}/api-read`,
      target: `${siteUrl}/api-read`,
      interval_seconds: 2,
      status: 'UP',
      last_check: { checked_at: expect.any(String), ok: true, status_code: 200, latency_ms: expect.any(Number) },
      uptime_24h: 100,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await request('GET', base, { token })).body.data.map((x: { id: string }) => x.id)).toContain(m.id);
    expect((await request('POST', base, { token, body: { name: 'x' } })).status).toBe(405);

    await api('POST', `/monitors/${m.id}/pause`);
    expect((await request('GET', `${base}/${m.id}`, { token })).body.data.status).toBe('PAUSED');
  });

  it('when paused, then no check runs; resumed, it checks at once', async () => {
    const m = await newMonitor('/paused');
    await waitFor(async () => (await checks(m.id)).length >= 1, 15_000, 'the first check');
    expect((await api('POST', `/monitors/${m.id}/pause`)).body.data).toEqual({ id: m.id, status: 'PAUSED' });
    expect((await workflow(m.id).query(monitorStateQuery)).paused).toBe(true);
    await sleep(1000); // a check already under way may still land
    const before = (await checks(m.id)).length;
    await sleep(5000);
    expect((await checks(m.id)).length).toBe(before);
    expect((await monitor(m.id)).state).toBe('PAUSED');

    expect((await api('POST', `/monitors/${m.id}/resume`)).body.data).toEqual({ id: m.id, status: 'ACTIVE' });
    await waitFor(async () => (await checks(m.id)).length > before, 10_000, 'a check after resuming');
  });

  it('when its settings change, then the next checks use them: a keyword missing from the page fails them', async () => {
    const m = await newMonitor('/kw');
    await waitFor(async () => (await monitor(m.id)).state === 'UP', 15_000, 'the first check');
    const res = await api('PUT', `/monitors/${m.id}`, { body: { keyword: 'Welcome', interval_seconds: 3 } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ keyword: 'Welcome', interval_seconds: 3, method: 'GET', timeout_seconds: 1 });
    expect(await workflow(m.id).query(monitorStateQuery)).toMatchObject({ intervalSeconds: 3, timeoutSeconds: 1 });
    await waitFor(async () => (await monitor(m.id)).last_check?.error === 'keyword "Welcome" not found in the response', 15_000, 'a check with the keyword');
  });

  it('when deleted, then its workflow stops, its checks go, and the incident it opened stays open', async () => {
    const m = await newMonitor('/gone', { failure_threshold: 1 });
    down.add('/gone');
    const incident = await waitFor(() => incidentOf(m.id), 15_000, 'the monitor’s incident');
    const res = await api('DELETE', `/monitors/${m.id}`);
    expect(res.body.data).toEqual({ id: m.id, deleted: true });
    expect((await workflow(m.id).describe()).status.name).toBe('TERMINATED');
    expect(await checks(m.id)).toEqual([]);
    expect((await api('GET', `/monitors/${m.id}`)).status).toBe(404);
    const hitsAtDelete = hits.get('/gone');
    await sleep(3000);
    expect(hits.get('/gone')).toBe(hitsAtDelete);
    expect((await incidentOf(m.id)).id).toBe(incident.id);
    expect(['TRIGGERED', 'ACKNOWLEDGED', 'INVESTIGATING']).toContain((await incidentOf(m.id)).status);
  });

  it('when a run has made its checks, then it continues as new with its schedule, and keeps checking', async () => {
    const m = await createMonitor(stack.orm, {
      organizationId: ws.organizationId,
      serviceId,
      name: 'long runner',
      type: 'http',
      target: `${siteUrl}/long`,
      intervalSeconds: 1,
      timeoutSeconds: 1,
    });
    const input: MonitorWorkflowInput = { monitorId: m.id, intervalSeconds: 1, timeoutSeconds: 1, paused: false, checksPerRun: 2 };
    const first = await stack.temporal.workflow.start('monitorWorkflow', { workflowId: monitorWorkflowId(m.id), taskQueue: stack.taskQueue, args: [input] });
    await waitFor(async () => (await workflow(m.id).describe()).runId !== first.firstExecutionRunId, 15_000, 'a second run');
    await waitFor(async () => (await checks(m.id)).length >= 3, 15_000, 'checks in the second run');
    expect(await workflow(m.id).query(monitorStateQuery)).toMatchObject({ intervalSeconds: 1, paused: false });
    await workflow(m.id).terminate('test over');
  });

  it('when a service with monitors is deleted, then their workflows end by themselves', async () => {
    const other = (await api('POST', '/services', { body: { name: 'Short-lived', team_id: ws.team.id } })).body.data.id;
    const res = await api('POST', '/monitors', { body: { service_id: other, name: 'temp', url: `${siteUrl}/temp`, interval_seconds: 2, timeout_seconds: 1 } });
    await waitFor(async () => (await checks(res.body.data.id)).length >= 1, 15_000, 'the first check');
    expect((await api('DELETE', `/services/${other}`)).status).toBe(200);
    await waitFor(async () => (await workflow(res.body.data.id).describe()).status.name === 'COMPLETED', 15_000, 'the workflow ended');
  });
});
