import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { knexOf } from '../../../src/db/knex';
import { ensureMonitorWorkflows } from '../../../src/services/monitors';
import { createMonitor, createService, createTeam, setPlan } from '../../../src/services/workspace';
import { monitorWorkflowId } from '../../../src/contracts/workflows';
import { auditLog, catalogWorkspace, catalogWorkspaceWithService, countIn, ROLE_TABLE, type CatalogWorkspace } from '../../support/catalog';
import { dashboardFixture, expectDashboardError, workspaceWithRoles } from '../../support/dashboard';
import { waitFor } from '../../support/wait';

// The default configuration: private targets refused, intervals of 30 s at least.
const fx = dashboardFixture();
const { api } = fx;
let ws: CatalogWorkspace;
let serviceId: string;

beforeAll(async () => {
  ({ ws, serviceId } = await catalogWorkspaceWithService(fx.stack, 'Storefront'));
});

const admin = () => ws.as.ACCOUNT_ADMIN;
// A name under .test never resolves: these monitors' checks fail quietly, and 30 s apart.
const body = (over: Record<string, unknown> = {}) => ({
  service_id: serviceId,
  name: 'home page',
  url: 'https://shop.example.test/health',
  interval_seconds: 60,
  timeout_seconds: 10,
  ...over,
});
const newMonitor = async (over: Record<string, unknown> = {}) => {
  const res = await api('POST', '/monitors', { session: admin(), body: body(over) });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; status: string };
};
const row = (id: string) => knexOf(fx.stack.orm)('monitors').where({ id }).first();
const workflow = (id: string) => fx.stack.temporal.workflow.getHandle(monitorWorkflowId(id));

describe('reading monitors', () => {
  it('when any member lists monitors, then they see their workspace’s and not another’s, and one by id; another workspace’s id is 404', async () => {
    const mine = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const other = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const team = await createTeam(fx.stack.orm, { organizationId: mine.organizationId, name: 'web' });
    const service = await createService(fx.stack.orm, { organizationId: mine.organizationId, teamId: team.id, name: 'site' });
    const m = await createMonitor(fx.stack.orm, {
      organizationId: mine.organizationId,
      serviceId: service.id,
      name: 'home page',
      type: 'http',
      target: 'https://example.test/',
      intervalSeconds: 60,
    });
    const otherTeam = await createTeam(fx.stack.orm, { organizationId: other.organizationId, name: 'web' });
    const otherService = await createService(fx.stack.orm, { organizationId: other.organizationId, teamId: otherTeam.id, name: 'site' });
    const theirs = await createMonitor(fx.stack.orm, {
      organizationId: other.organizationId,
      serviceId: otherService.id,
      name: 'theirs',
      type: 'http',
      target: 'https://other.test/',
      intervalSeconds: 60,
    });

    const list = await fx.api('GET', '/monitors', { session: mine.as.MEMBER });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      {
        id: m.id,
        service_id: service.id,
        name: 'home page',
        type: 'http',
        url: 'https://example.test/',
        target: 'https://example.test/',
        method: 'GET',
        interval_seconds: 60,
        timeout_seconds: 10,
        expected_status_codes: null,
        keyword: null,
        failure_threshold: 3,
        status: 'ACTIVE',
        state: 'PENDING',
        consecutive_failures: 0,
        last_checked_at: null,
        last_check: null,
        uptime_24h: null,
        open_incident_id: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    ]);
    expect((await fx.api('GET', `/monitors/${m.id}`, { session: mine.as.MEMBER })).body.data.name).toBe('home page');
    expectDashboardError(await fx.api('GET', `/monitors/${theirs.id}`, { session: mine.as.MEMBER }), 404, 'not_found');
    expect((await fx.api('GET', '/monitors/not-a-uuid', { session: mine.as.MEMBER })).status).toBe(400);
  });
});

describe('who may manage monitors', () => {
  it.each(ROLE_TABLE)(
    'when a %s creates a monitor on the team’s service, then allowed = %s (else 403 forbidden and nothing is stored)',
    async (role, allowed) => {
      const before = await countIn(fx.stack, 'monitors', ws.organizationId);
      const res = await api('POST', '/monitors', { session: ws.as[role], body: body({ name: `by ${role}` }) });
      if (allowed) expect(res.status).toBe(201);
      else expectDashboardError(res, 403, 'forbidden');
      expect(await countIn(fx.stack, 'monitors', ws.organizationId)).toBe(before + (allowed ? 1 : 0));
    },
  );

  it.each(ROLE_TABLE)(
    'when a %s changes, pauses and resumes the team’s monitor, then allowed = %s (else 403 and it stays as it was)',
    async (role, allowed) => {
      const m = await newMonitor();
      const changed = await api('PUT', `/monitors/${m.id}`, { session: ws.as[role], body: { name: `renamed by ${role}` } });
      expect(changed.status).toBe(allowed ? 200 : 403);
      expect((await row(m.id)).name).toBe(allowed ? `renamed by ${role}` : 'home page');
      const paused = await api('POST', `/monitors/${m.id}/pause`, { session: ws.as[role] });
      expect(paused.status).toBe(allowed ? 200 : 403);
      expect((await row(m.id)).status).toBe(allowed ? 'PAUSED' : 'ACTIVE');
      const resumed = await api('POST', `/monitors/${m.id}/resume`, { session: ws.as[role] });
      expect(resumed.status).toBe(allowed ? 200 : 403);
      expect((await row(m.id)).status).toBe('ACTIVE');
    },
  );

  it.each(ROLE_TABLE)('when a %s deletes the team’s monitor, then allowed = %s (else 403 and its workflow keeps running)', async (role, allowed) => {
    const m = await newMonitor();
    const res = await api('DELETE', `/monitors/${m.id}`, { session: ws.as[role] });
    expect(res.status).toBe(allowed ? 200 : 403);
    expect((await workflow(m.id).describe()).status.name).toBe(allowed ? 'TERMINATED' : 'RUNNING');
    expect(Boolean(await row(m.id))).toBe(!allowed);
  });

  it('when someone names another workspace’s service or monitor, then 404 and nothing changes', async () => {
    const other = await catalogWorkspace(fx.stack);
    const theirService = (await api('POST', '/services', { session: other.as.ACCOUNT_ADMIN, body: { name: 'Theirs', team_id: other.team.id } })).body.data.id;
    const theirs = (await api('POST', '/monitors', { session: other.as.ACCOUNT_ADMIN, body: body({ service_id: theirService }) })).body.data;
    expect((await api('POST', '/monitors', { session: admin(), body: body({ service_id: theirService }) })).status).toBe(404);
    expect((await api('PUT', `/monitors/${theirs.id}`, { session: admin(), body: { name: 'mine now' } })).status).toBe(404);
    expect((await api('POST', `/monitors/${theirs.id}/pause`, { session: admin() })).status).toBe(404);
    expect((await api('DELETE', `/monitors/${theirs.id}`, { session: admin() })).status).toBe(404);
    expect(await row(theirs.id)).toMatchObject({ name: 'home page', status: 'ACTIVE' });
  });
});

describe('creating a monitor', () => {
  it('when created with only the required fields, then the defaults apply (GET, any 2xx, threshold 3) and its workflow runs', async () => {
    const m = await newMonitor({ name: 'defaults' });
    expect(m).toMatchObject({
      name: 'defaults',
      method: 'GET',
      expected_status_codes: null,
      keyword: null,
      failure_threshold: 3,
      status: 'ACTIVE',
      state: 'PENDING',
      interval_seconds: 60,
      timeout_seconds: 10,
    });
    expect((await workflow(m.id).describe()).status.name).toBe('RUNNING');
  });

  it('when created with every field, then each is kept', async () => {
    const m = await newMonitor({
      name: 'login',
      method: 'POST',
      expected_status_codes: [200, 401],
      keyword: 'Sign in',
      failure_threshold: 5,
      interval_seconds: 120,
      timeout_seconds: 30,
    });
    expect(await row(m.id)).toMatchObject({
      method: 'POST',
      expected_status_codes: [200, 401],
      keyword: 'Sign in',
      failure_threshold: 5,
      interval_seconds: 120,
      timeout_seconds: 30,
      type: 'http',
      target: 'https://shop.example.test/health',
    });
  });

  it.each([
    ['FREE', 60, 300],
    ['STARTER', 30, 60],
  ] as const)('when a %s workspace asks for %i s, then 403 plan_limit_reached naming its minimum; %i s is accepted', async (plan, tooShort, minimum) => {
    const small = await catalogWorkspace(fx.stack, { plan });
    const service = (await api('POST', '/services', { session: small.as.ACCOUNT_ADMIN, body: { name: 'Site', team_id: small.team.id } })).body.data.id;
    const refused = await api('POST', '/monitors', { session: small.as.ACCOUNT_ADMIN, body: body({ service_id: service, interval_seconds: tooShort }) });
    expectDashboardError(refused, 403, 'plan_limit_reached', new RegExp(`^interval_seconds: the ${plan} plan checks at most every ${minimum} s`));
    expect(await countIn(fx.stack, 'monitors', small.organizationId)).toBe(0);
    expect((await api('POST', '/monitors', { session: small.as.ACCOUNT_ADMIN, body: body({ service_id: service, interval_seconds: minimum }) })).status).toBe(
      201,
    );
    // A change is held to the same minimum.
    const m = (await api('GET', '/monitors', { session: small.as.ACCOUNT_ADMIN })).body.data[0];
    expectDashboardError(
      await api('PUT', `/monitors/${m.id}`, { session: small.as.ACCOUNT_ADMIN, body: { interval_seconds: tooShort } }),
      403,
      'plan_limit_reached',
    );
    await setPlan(fx.stack.orm, small.organizationId, 'BUSINESS');
    expect((await api('PUT', `/monitors/${m.id}`, { session: small.as.ACCOUNT_ADMIN, body: { interval_seconds: 30, timeout_seconds: 5 } })).status).toBe(200);
  });
});

describe('bad input', () => {
  it.each([
    ['a private address', { url: 'http://127.0.0.1:8080/' }, /^url: targets a private address \(loopback\)/],
    ['localhost', { url: 'http://localhost/health' }, /^url: targets a private address \(localhost\)/],
    ['the cloud metadata address', { url: 'http://169.254.169.254/latest/meta-data/' }, /^url: targets a private address \(linkLocal\)/],
    ['a non-HTTP URL', { url: 'ftp://files.example.test/' }, /^url: must be an http:\/\/ or https:\/\/ URL/],
    ['credentials in the URL', { url: 'https://admin:hunter2@example.test/' }, /^url: must not contain a user name or password/],
    ['a URL over 2048 characters', { url: `https://example.test/${'a'.repeat(2048)}` }, /^url: must be at most 2048 characters/],
    ['an interval under 30 s', { interval_seconds: 29, timeout_seconds: 5 }, /^interval_seconds: must be at least 30/],
    ['an interval given as a string', { interval_seconds: '60' }, /^interval_seconds: /],
    ['a timeout over 30 s', { timeout_seconds: 31 }, /^timeout_seconds: must be at most 30/],
    ['a timeout not under the interval', { interval_seconds: 30, timeout_seconds: 30 }, /^timeout_seconds: must be less than interval_seconds/],
    ['an unknown method', { method: 'DELETE' }, /^method: must be GET, HEAD or POST/],
    ['a status code of 600', { expected_status_codes: [200, 600] }, /^expected_status_codes\.1: must be between 100 and 599/],
    ['an empty status list', { expected_status_codes: [] }, /^expected_status_codes: must list at least one/],
    ['a keyword over 200 characters', { keyword: 'k'.repeat(201) }, /^keyword: must be at most 200 characters/],
    ['a threshold of 11', { failure_threshold: 11 }, /^failure_threshold: must be at most 10/],
    ['a name over 255 characters', { name: 'n'.repeat(256) }, /^name: must be at most 255 characters/],
    ['a service_id that is not a UUID', { service_id: 'storefront' }, /^service_id: must be a UUID/],
    ['an unknown field', { follow_redirects: false }, /"follow_redirects"/],
  ])('when the body has %s, then 400 naming the field and nothing is written', async (_what, over, message) => {
    const before = await countIn(fx.stack, 'monitors', ws.organizationId);
    const res = await api('POST', '/monitors', { session: admin(), body: body(over) });
    expectDashboardError(res, 400, 'invalid_request', message);
    expect(await countIn(fx.stack, 'monitors', ws.organizationId)).toBe(before);
  });

  it('when a change has bad input, then 400 naming the field and the monitor stays as it was', async () => {
    const m = await newMonitor({ name: 'steady' });
    expectDashboardError(
      await api('PUT', `/monitors/${m.id}`, { session: admin(), body: { url: 'http://10.0.0.5/' } }),
      400,
      'invalid_request',
      /^url: targets a private address \(private\)/,
    );
    expectDashboardError(
      await api('PUT', `/monitors/${m.id}`, { session: admin(), body: { timeout_seconds: 60 } }),
      400,
      'invalid_request',
      /^timeout_seconds: must be at most 30/,
    );
    expectDashboardError(await api('PUT', `/monitors/${m.id}`, { session: admin(), body: { keyword: 'k'.repeat(201) } }), 400, 'invalid_request', /^keyword: /);
    expectDashboardError(await api('PUT', `/monitors/${m.id}`, { session: admin(), body: { paused: true } }), 400, 'invalid_request', /"paused"/);
    // Checked against what is stored: a 30 s interval leaves no room for the stored 10 s timeout? It does; 30 s does not.
    expect((await api('PUT', `/monitors/${m.id}`, { session: admin(), body: { interval_seconds: 30 } })).status).toBe(200);
    expectDashboardError(
      await api('PUT', `/monitors/${m.id}`, { session: admin(), body: { timeout_seconds: 30 } }),
      400,
      'invalid_request',
      /^timeout_seconds: must be less than interval_seconds \(30\)/,
    );
    expect(await row(m.id)).toMatchObject({
      name: 'steady',
      target: 'https://shop.example.test/health',
      interval_seconds: 30,
      timeout_seconds: 10,
      keyword: null,
    });
  });
});

describe('checks refuse private addresses by default', () => {
  it('when a monitor’s name resolves to 127.0.0.1, then its check fails with "target resolves to a private address" and nothing is requested; a worker starting picks the monitor up', async () => {
    let requests = 0;
    const site = http.createServer((_req, res) => {
      requests++;
      res.writeHead(200).end('ok');
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    try {
      // Written to the table directly (the API refuses localhost as written), as a monitor that existed before the worker started.
      const m = await createMonitor(fx.stack.orm, {
        organizationId: ws.organizationId,
        serviceId,
        name: 'sneaky',
        type: 'http',
        target: `http://localhost:${(site.address() as AddressInfo).port}/`,
        intervalSeconds: 60,
        failureThreshold: 1,
      });
      expect(await ensureMonitorWorkflows(fx.stack.orm, fx.stack.temporal, fx.stack.taskQueue)).toBeGreaterThanOrEqual(1);
      const check = await waitFor(() => knexOf(fx.stack.orm)('monitor_checks').where({ monitor_id: m.id }).first(), 15_000, 'the check');
      expect(check).toMatchObject({ ok: false, status_code: null, error: 'target resolves to a private address' });
      expect(requests).toBe(0);
      // Ensuring again leaves running workflows alone.
      const runId = (await workflow(m.id).describe()).runId;
      await ensureMonitorWorkflows(fx.stack.orm, fx.stack.temporal, fx.stack.taskQueue);
      expect((await workflow(m.id).describe()).runId).toBe(runId);
      await workflow(m.id).terminate('test over');
    } finally {
      await new Promise<void>((r) => site.close(() => r()));
    }
  });
});

describe('the audit log', () => {
  it('when a monitor is created, changed, paused, resumed and deleted, then each change is one entry', async () => {
    const session = ws.as.TEAM_MANAGER;
    const m = (await api('POST', '/monitors', { session, body: body({ name: 'audited', url: 'https://shop.example.test/health?token=s3cr3t' }) })).body.data;
    await api('PUT', `/monitors/${m.id}`, { session, body: { keyword: 'OK' } });
    await api('POST', `/monitors/${m.id}/pause`, { session });
    await api('POST', `/monitors/${m.id}/pause`, { session }); // a repeat changes nothing
    await api('POST', `/monitors/${m.id}/resume`, { session });
    await api('DELETE', `/monitors/${m.id}`, { session });
    const entries = [];
    for (const action of ['monitor.create', 'monitor.update', 'monitor.pause', 'monitor.resume', 'monitor.delete']) {
      const mine = (await auditLog(fx.stack, ws.owner, action)).filter((e) => e.target.id === m.id);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ actor: { label: session.email }, target: { type: 'monitor', id: m.id }, details: { name: 'audited' } });
      entries.push(...mine);
    }
    expect(entries[0].details).toMatchObject({
      service_id: serviceId,
      url: 'https://shop.example.test/health',
      interval_seconds: 60,
      timeout_seconds: 10,
      method: 'GET',
    });
    expect(entries[1].details).toEqual({ name: 'audited', keyword: 'OK' });
    expect(JSON.stringify(entries)).not.toContain('s3cr3t');
  });
});
