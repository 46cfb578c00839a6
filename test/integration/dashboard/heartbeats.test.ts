import { heartbeatStateQuery, heartbeatWorkflowId } from '../../../src/contracts/workflows';
import { knexOf } from '../../../src/db/knex';
import { auditLog, catalogWorkspace, catalogWorkspaceWithService, countIn, ROLE_TABLE, type CatalogWorkspace } from '../../support/catalog';
import { dashboardFixture } from '../../support/dashboard';
import { request } from '../../support/http';
import { sleep, waitFor } from '../../support/wait';

const fx = dashboardFixture();
const { api } = fx;
let ws: CatalogWorkspace;
let serviceId: string;

beforeAll(async () => {
  ({ ws, serviceId } = await catalogWorkspaceWithService(fx.stack, 'Backups'));
});

const admin = () => ws.as.ACCOUNT_ADMIN;
const body = (over: Record<string, unknown> = {}) => ({ service_id: serviceId, name: 'nightly backup', period_seconds: 3600, grace_seconds: 60, ...over });
const newHeartbeat = async (over: Record<string, unknown> = {}) => {
  const res = await api('POST', '/heartbeats', { session: admin(), body: body(over) });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; ping_url: string; status: string };
};
const row = (id: string) => knexOf(fx.stack.orm)('heartbeats').where({ id }).first();
const workflow = (id: string) => fx.stack.temporal.workflow.getHandle(heartbeatWorkflowId(id));
const missedIncident = (id: string) =>
  knexOf(fx.stack.orm)('incidents')
    .where({ dedup_key: `heartbeat:${id}` })
    .first();

describe('who may manage heartbeats', () => {
  it.each(ROLE_TABLE)(
    'when a %s creates a heartbeat on the team’s service, then allowed = %s (else 403 forbidden and nothing is stored)',
    async (role, allowed) => {
      const before = await countIn(fx.stack, 'heartbeats', ws.organizationId);
      const res = await api('POST', '/heartbeats', { session: ws.as[role], body: body({ name: `by ${role}` }) });
      expect(res.status).toBe(allowed ? 201 : 403);
      if (!allowed) expect(res.body).toMatchObject({ success: false, code: 'forbidden' });
      expect(await countIn(fx.stack, 'heartbeats', ws.organizationId)).toBe(before + (allowed ? 1 : 0));
    },
  );

  it.each(ROLE_TABLE)('when a %s pauses and resumes the team’s heartbeat, then allowed = %s (else 403 and its status stays)', async (role, allowed) => {
    const hb = await newHeartbeat();
    const paused = await api('POST', `/heartbeats/${hb.id}/pause`, { session: ws.as[role] });
    expect(paused.status).toBe(allowed ? 200 : 403);
    expect((await row(hb.id)).status).toBe(allowed ? 'PAUSED' : 'ACTIVE');
    const resumed = await api('POST', `/heartbeats/${hb.id}/resume`, { session: ws.as[role] });
    expect(resumed.status).toBe(allowed ? 200 : 403);
    expect((await row(hb.id)).status).toBe('ACTIVE');
  });

  it.each(ROLE_TABLE)('when a %s deletes the team’s heartbeat, then allowed = %s (else 403 and its ping URL still works)', async (role, allowed) => {
    const hb = await newHeartbeat();
    const res = await api('DELETE', `/heartbeats/${hb.id}`, { session: ws.as[role] });
    expect(res.status).toBe(allowed ? 200 : 403);
    expect((await request('GET', hb.ping_url)).status).toBe(allowed ? 404 : 200);
  });

  it('when someone names another workspace’s service or heartbeat, then 404', async () => {
    const other = await catalogWorkspace(fx.stack);
    const theirService = (await api('POST', '/services', { session: other.as.ACCOUNT_ADMIN, body: { name: 'Theirs', team_id: other.team.id } })).body.data.id;
    const theirs = (await api('POST', '/heartbeats', { session: other.as.ACCOUNT_ADMIN, body: body({ service_id: theirService }) })).body.data;
    expect((await api('POST', '/heartbeats', { session: admin(), body: body({ service_id: theirService }) })).status).toBe(404);
    expect((await api('POST', `/heartbeats/${theirs.id}/pause`, { session: admin() })).status).toBe(404);
    expect((await api('DELETE', `/heartbeats/${theirs.id}`, { session: admin() })).status).toBe(404);
    expect((await api('GET', '/heartbeats', { session: admin() })).body.data.map((h: { id: string }) => h.id)).not.toContain(theirs.id);
    expect((await row(theirs.id)).status).toBe('ACTIVE');
  });
});

describe('a heartbeat’s life', () => {
  it('when created, then its ping URL (shown once) checks in; any member lists it without the URL', async () => {
    const hb = await newHeartbeat({ name: 'cron' });
    expect(hb).toEqual({
      id: expect.any(String),
      name: 'cron',
      service_id: serviceId,
      period_seconds: 3600,
      grace_seconds: 60,
      status: 'ACTIVE',
      ping_url: expect.stringMatching(new RegExp(`^${fx.stack.urls.ingest}/ping/[A-Za-z0-9_-]{32}$`)),
    });
    expect((await request('POST', hb.ping_url)).status).toBe(200);
    const list = await api('GET', '/heartbeats', { session: ws.as.MEMBER });
    const listed = list.body.data.find((h: { id: string }) => h.id === hb.id);
    expect(listed).toEqual({
      id: hb.id,
      name: 'cron',
      service_id: serviceId,
      period_seconds: 3600,
      grace_seconds: 60,
      status: 'ACTIVE',
      last_ping_at: expect.any(String),
      created_at: expect.any(String),
    });
    expect(JSON.stringify(list.body)).not.toContain(hb.ping_url.split('/').pop());
  });

  it('when paused, then a silent heartbeat opens nothing; resumed, its workflow watches again and a missed check-in opens an incident', async () => {
    const hb = await newHeartbeat({ name: 'paused job', period_seconds: 1, grace_seconds: 1 });
    expect((await request('GET', hb.ping_url)).status).toBe(200);
    const paused = await api('POST', `/heartbeats/${hb.id}/pause`, { session: admin() });
    expect(paused.body.data).toEqual({ id: hb.id, status: 'PAUSED' });
    expect((await workflow(hb.id).query(heartbeatStateQuery)).paused).toBe(true);
    await sleep(3000);
    expect(await missedIncident(hb.id)).toBeUndefined();

    const resumed = await api('POST', `/heartbeats/${hb.id}/resume`, { session: admin() });
    expect(resumed.body.data).toEqual({ id: hb.id, status: 'ACTIVE' });
    expect((await workflow(hb.id).query(heartbeatStateQuery)).paused).toBe(false);
    const incident = await waitFor(() => missedIncident(hb.id), 15_000, 'the missed-heartbeat incident');
    expect(incident).toMatchObject({ service_id: serviceId, title: 'Heartbeat missed: paused job' });
  });

  it('when deleted, then its workflow is stopped and its ping URL answers 404', async () => {
    const hb = await newHeartbeat({ name: 'retired job' });
    expect((await request('GET', hb.ping_url)).status).toBe(200);
    const res = await api('DELETE', `/heartbeats/${hb.id}`, { session: admin() });
    expect(res.body.data).toEqual({ id: hb.id, deleted: true });
    expect((await workflow(hb.id).describe()).status.name).toBe('TERMINATED');
    expect((await request('GET', hb.ping_url)).status).toBe(404);
    expect(await row(hb.id)).toBeUndefined();
    expect((await api('DELETE', `/heartbeats/${hb.id}`, { session: admin() })).status).toBe(404);
  });
});

describe('bad input and CSRF', () => {
  it.each([
    ['a period given as a string', { period_seconds: '60' }, /^period_seconds: /],
    ['a period of 0', { period_seconds: 0 }, /^period_seconds: must be at least 1/],
    ['a negative grace', { grace_seconds: -1 }, /^grace_seconds: must not be negative/],
    ['a name over 255 characters', { name: 'n'.repeat(256) }, /^name: must be at most 255 characters/],
    ['a service_id that is not a UUID', { service_id: 'backups' }, /^service_id: must be a UUID/],
    ['an unknown field', { cron: '* * * * *' }, /"cron"/],
  ])('when the body has %s, then 400 naming the field and nothing is written', async (_what, over, message) => {
    const before = await countIn(fx.stack, 'heartbeats', ws.organizationId);
    const res = await api('POST', '/heartbeats', { session: admin(), body: body(over) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'invalid_request', error: expect.stringMatching(message) });
    expect(await countIn(fx.stack, 'heartbeats', ws.organizationId)).toBe(before);
  });

  it('when a change comes without X-CSRF-Token, then 403 csrf_failed and nothing changes', async () => {
    const hb = await newHeartbeat();
    const before = await countIn(fx.stack, 'heartbeats', ws.organizationId);
    const noCsrf = (method: string, path: string, b?: unknown) => api(method, path, { session: admin(), csrf: null, body: b });
    for (const res of [
      await noCsrf('POST', '/heartbeats', body()),
      await noCsrf('POST', `/heartbeats/${hb.id}/pause`),
      await noCsrf('DELETE', `/heartbeats/${hb.id}`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('csrf_failed');
    }
    expect(await countIn(fx.stack, 'heartbeats', ws.organizationId)).toBe(before);
    expect((await row(hb.id)).status).toBe('ACTIVE');
  });
});

describe('the audit log', () => {
  it('when a heartbeat is created, paused, resumed and deleted, then each change is one entry without its ping URL', async () => {
    const session = ws.as.TEAM_MANAGER;
    const hb = (await api('POST', '/heartbeats', { session, body: body({ name: 'audited' }) })).body.data;
    await api('POST', `/heartbeats/${hb.id}/pause`, { session });
    await api('POST', `/heartbeats/${hb.id}/pause`, { session }); // a repeat changes nothing
    await api('POST', `/heartbeats/${hb.id}/resume`, { session });
    await api('DELETE', `/heartbeats/${hb.id}`, { session });
    const entries = [];
    for (const action of ['heartbeat.create', 'heartbeat.pause', 'heartbeat.resume', 'heartbeat.delete']) {
      const mine = (await auditLog(fx.stack, ws.owner, action)).filter((e) => e.target.id === hb.id);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ actor: { label: session.email }, target: { type: 'heartbeat', id: hb.id }, details: { name: 'audited' } });
      entries.push(...mine);
    }
    expect(entries[0].details).toMatchObject({ service_id: serviceId, period_seconds: 3600, grace_seconds: 60 });
    expect(JSON.stringify(entries)).not.toContain(hb.ping_url.split('/').pop());
  });
});
