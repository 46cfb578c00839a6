import { knexOf } from '../../../src/db/knex';
import { createSource } from '../../../src/services/ingest/sources';
import { auditLog, catalogWorkspace, catalogWorkspaceWithService, countIn, ROLE_TABLE, type CatalogWorkspace } from '../../support/catalog';
import { dashboardFixture } from '../../support/dashboard';
import { request } from '../../support/http';
import { klaxon } from '../../support/cli';
import { sendRaw } from '../../support/raw-http';
import { TEST_SECRET } from '../../support/stack';
import { signBody } from '../../../src/domain/inbound-webhook-signature';

const fx = dashboardFixture();
const { api } = fx;
let ws: CatalogWorkspace;
let serviceId: string;

beforeAll(async () => {
  ({ ws, serviceId } = await catalogWorkspaceWithService(fx.stack, 'Checkout'));
});

const admin = () => ws.as.ACCOUNT_ADMIN;
const liveSources = () => knexOf(fx.stack.orm)('alert_sources').where({ organization_id: ws.organizationId }).whereIn('status', ['ACTIVE', 'PAUSED']);
const liveCount = async () => (await liveSources()).length;
const newSource = async (body: Record<string, unknown> = {}) => {
  const res = await api('POST', '/sources', { session: admin(), body: { name: 'prometheus', service_id: serviceId, ...body } });
  expect(res.status).toBe(201);
  return res.body.data;
};
const sendAlert = (url: string, title = 'CPU high') => request('POST', url, { body: { title } });

/** A webhook's Form B receiver: unsigned is 401 and stores nothing; signed with its secret, 202. */
async function expectSignedReceiver(receiverUrl: string, secret: string) {
  const raw = JSON.stringify({ title: 'Disk full', severity: 'warning' });
  const unsigned = await sendRaw('POST', receiverUrl, { body: raw });
  expect({ status: unsigned.status, code: unsigned.body.code }).toEqual({ status: 401, code: 'invalid_signature' });
  const signed = await sendRaw('POST', receiverUrl, { body: raw, headers: { 'X-Service-Signature': signBody(secret, raw) } });
  expect(signed.status).toBe(202);
}

describe('who may manage alert sources', () => {
  it.each(ROLE_TABLE)(
    'when a %s creates a source on the team’s service, then allowed = %s (else 403 forbidden and nothing is stored)',
    async (role, allowed) => {
      const before = await liveCount();
      const res = await api('POST', '/sources', { session: ws.as[role], body: { name: `by ${role}`, service_id: serviceId } });
      expect(res.status).toBe(allowed ? 201 : 403);
      if (!allowed) expect(res.body).toMatchObject({ success: false, code: 'forbidden' });
      expect(await liveCount()).toBe(before + (allowed ? 1 : 0));
    },
  );

  it.each(ROLE_TABLE)('when a %s changes or rotates the team’s source, then allowed = %s (else 403 and it is unchanged)', async (role, allowed) => {
    const source = await newSource();
    const renamed = await api('PUT', `/sources/${source.id}`, { session: ws.as[role], body: { name: `renamed by ${role}` } });
    expect(renamed.status).toBe(allowed ? 200 : 403);
    const rotated = await api('POST', `/sources/${source.id}/rotate`, { session: ws.as[role] });
    expect(rotated.status).toBe(allowed ? 200 : 403);
    const row = await knexOf(fx.stack.orm)('alert_sources').where({ id: source.id }).first();
    expect(row.name).toBe(allowed ? `renamed by ${role}` : 'prometheus');
    expect((await sendAlert(source.webhook_url)).status).toBe(allowed ? 404 : 202);
  });

  it.each(ROLE_TABLE)('when a %s deletes the team’s source, then allowed = %s (else 403 and its URL still works)', async (role, allowed) => {
    const source = await newSource();
    const res = await api('DELETE', `/sources/${source.id}`, { session: ws.as[role] });
    expect(res.status).toBe(allowed ? 200 : 403);
    expect((await sendAlert(source.webhook_url)).status).toBe(allowed ? 404 : 202);
    expect((await api('GET', `/sources/${source.id}`, { session: ws.as.MEMBER })).status).toBe(allowed ? 404 : 200);
  });
});

describe('an alert source’s ingestion URL', () => {
  it('when created in the dashboard, then its URL takes alerts; after rotate the old URL is 404 and the new one works', async () => {
    const source = await newSource();
    expect(source).toMatchObject({ name: 'prometheus', service_id: serviceId, status: 'ACTIVE', channels: null, signed: false, signing_secret: null });
    expect(source.webhook_url.startsWith(`${fx.stack.urls.ingest}/`)).toBe(true);
    const first = await sendAlert(source.webhook_url);
    expect(first.status).toBe(202);
    expect((await knexOf(fx.stack.orm)('incidents').where({ id: first.body.incident_id }).first()).service_id).toBe(serviceId);

    const rotated = await api('POST', `/sources/${source.id}/rotate`, { session: admin() });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.webhook_url).not.toBe(source.webhook_url);
    expect((await sendAlert(source.webhook_url)).status).toBe(404);
    expect((await sendAlert(rotated.body.data.webhook_url)).status).toBe(202);
    expect((await api('GET', `/sources/${source.id}`, { session: ws.as.MEMBER })).body.data.webhook_url).toBe(rotated.body.data.webhook_url);
  });

  it('when created, read, listed and rotated, then every answer shows its routing key, and a rotation replaces it', async () => {
    const source = await newSource();
    const stored = (await knexOf(fx.stack.orm)('alert_sources').where({ id: source.id }).first()).routing_key;
    expect(source.routing_key).toMatch(/^[0-9a-f]{32}$/);
    expect(source.routing_key).toBe(stored);
    expect((await api('GET', `/sources/${source.id}`, { session: ws.as.MEMBER })).body.data.routing_key).toBe(stored);
    const listed = await api('GET', '/sources?limit=100', { session: ws.as.MEMBER });
    expect(listed.body.data.find((s: { id: string }) => s.id === source.id).routing_key).toBe(stored);
    const rotated = await api('POST', `/sources/${source.id}/rotate`, { session: admin() });
    expect(rotated.body.data.routing_key).toMatch(/^[0-9a-f]{32}$/);
    expect(rotated.body.data.routing_key).not.toBe(stored);
    expect((await knexOf(fx.stack.orm)('alert_sources').where({ id: source.id }).first()).routing_key).toBe(rotated.body.data.routing_key);
  });

  it('when paused, then its URL answers 423 and stores nothing; set ACTIVE again, it takes alerts', async () => {
    const source = await newSource();
    const paused = await api('PUT', `/sources/${source.id}`, { session: admin(), body: { status: 'PAUSED' } });
    expect(paused.body.data.status).toBe('PAUSED');
    const alertsBefore = await countIn(fx.stack, 'alerts', ws.organizationId);
    expect((await sendAlert(source.webhook_url)).status).toBe(423);
    expect(await countIn(fx.stack, 'alerts', ws.organizationId)).toBe(alertsBefore);
    await api('PUT', `/sources/${source.id}`, { session: admin(), body: { status: 'ACTIVE' } });
    expect((await sendAlert(source.webhook_url)).status).toBe(202);
  });

  it('when deleted, then its URL is 404 and its incidents remain', async () => {
    const source = await newSource();
    const alert = await sendAlert(source.webhook_url);
    expect((await api('DELETE', `/sources/${source.id}`, { session: admin() })).body.data).toEqual({ id: source.id, deleted: true });
    expect((await sendAlert(source.webhook_url)).status).toBe(404);
    expect(await knexOf(fx.stack.orm)('incidents').where({ id: alert.body.incident_id }).first()).toBeDefined();
  });
});

describe('signed sources and channels', () => {
  it('when created with channels, then it is signed: the secret is shown once, reads never show it, and a rotation replaces it', async () => {
    const source = await newSource({ name: 'grafana', channels: ['SMS', 'email'], ip_allowlist: ['10.0.0.0/8'] });
    expect(source).toMatchObject({
      channels: ['sms', 'email'],
      notification_types: ['SMS', 'EMAIL'],
      signed: true,
      ip_allowlist: ['10.0.0.0/8'],
      signing_secret: expect.stringMatching(/^whsec_/),
    });
    const read = await api('GET', `/sources/${source.id}`, { session: admin() });
    expect(read.body.data.signed).toBe(true);
    expect(JSON.stringify(read.body)).not.toContain(source.signing_secret);
    const rotated = await api('POST', `/sources/${source.id}/rotate-signing-secret`, { session: admin() });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data).toEqual({ id: source.id, signing_secret: expect.stringMatching(/^whsec_/) });
    expect(rotated.body.data.signing_secret).not.toBe(source.signing_secret);
  });

  it('when a plain source is given channels, then it becomes a signed webhook: its secret is in that answer once, and its receiver refuses unsigned posts', async () => {
    const plain = await newSource({ name: 'plain, then a webhook' });
    expect(plain).toMatchObject({ channels: null, signed: false, signing_secret: null });
    const changed = await api('PUT', `/sources/${plain.id}`, { session: admin(), body: { channels: ['email'] } });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ channels: ['email'], signed: true, signing_secret: expect.stringMatching(/^whsec_/) });
    expect(changed.body.message).toMatch(/keep its signing secret/);
    await expectSignedReceiver(changed.body.data.receiver_url, changed.body.data.signing_secret);
    // Changing its channels again mints nothing new: the secret stays the one shown.
    const again = await api('PUT', `/sources/${plain.id}`, { session: admin(), body: { channels: ['email', 'sms'] } });
    expect(again.body.data.signing_secret).toBeUndefined();
    await expectSignedReceiver(changed.body.data.receiver_url, changed.body.data.signing_secret);
  });

  it('when the CLI makes a source with channels, then it prints a signing secret once and the receiver takes only signed posts', async () => {
    const created = await klaxon(['source', 'create', '--service', serviceId, '--name', 'cli webhook', '--channels', 'email', '--json'], {
      KLAXON_SECRET: TEST_SECRET,
      INGEST_URL: fx.stack.urls.ingest,
    });
    expect(created.code).toBe(0);
    expect(created.json).toMatchObject({ channels: ['email'], signing_secret: expect.stringMatching(/^whsec_/) });
    const read = await api('GET', `/sources/${created.json.id}`, { session: admin() });
    expect(read.body.data).toMatchObject({ signed: true, webhook_url: created.json.ingest_url });
    await expectSignedReceiver(read.body.data.receiver_url, created.json.signing_secret);
  });

  it('when sources were made elsewhere (the CLI), then the dashboard lists them too, plain ones with channels null', async () => {
    const cli = await createSource(fx.stack.orm, { organizationId: ws.organizationId, serviceId, name: 'from the CLI', ingestBaseUrl: fx.stack.urls.ingest });
    const list = await api('GET', '/sources?limit=200', { session: ws.as.MEMBER });
    expect(list.status).toBe(200);
    expect(list.body.meta.total).toBe(await liveCount());
    expect(list.body.data.find((s: { id: string }) => s.id === cli.id)).toMatchObject({ name: 'from the CLI', channels: null, webhook_url: null });
    const rotated = await api('POST', `/sources/${cli.id}/rotate`, { session: admin() });
    expect((await sendAlert(rotated.body.data.webhook_url)).status).toBe(202);
  });
});

describe('the plan’s source limit', () => {
  it('when a FREE workspace has 3 sources, then a 4th is 403 plan_limit_reached and not stored; revoking one makes room', async () => {
    const free = await catalogWorkspace(fx.stack, { plan: 'FREE' });
    const service = (await api('POST', '/services', { session: free.owner, body: { name: 'Only', team_id: free.team.id } })).body.data;
    const create = (name: string) => api('POST', '/sources', { session: free.owner, body: { name, service_id: service.id } });
    const made = [];
    for (const name of ['one', 'two', 'three']) made.push(await create(name));
    expect(made.map((r) => r.status)).toEqual([201, 201, 201]);
    const fourth = await create('four');
    expect(fourth.status).toBe(403);
    expect(fourth.body).toMatchObject({ success: false, code: 'plan_limit_reached' });
    expect((await api('GET', '/sources', { session: free.owner })).body.meta.total).toBe(3);
    await api('DELETE', `/sources/${made[0].body.data.id}`, { session: free.owner });
    expect((await create('four')).status).toBe(201);
  });
});

describe('bad input and CSRF', () => {
  it.each([
    ['a name under 3 characters', { name: 'ab' }, /^name: must be at least 3 characters/],
    ['a name over 255 characters', { name: 'n'.repeat(256) }, /^name: must be at most 255 characters/],
    ['an unknown channel', { channels: ['pager'] }, /^channels: unknown channel "pager"/],
    ['channels that are not a list', { channels: 'sms' }, /^channels: /],
    ['a bad IP allowlist entry', { channels: ['email'], ip_allowlist: ['not-an-ip'] }, /^ip_allowlist: /],
    ['an unknown field', { token: 'mine' }, /"token"/],
    ['a service_id that is not a UUID', { service_id: 'checkout' }, /^service_id: must be a UUID/],
  ])('when the body has %s, then 400 naming the field and nothing is written', async (_what, body, message) => {
    const before = await liveCount();
    const res = await api('POST', '/sources', { session: admin(), body: { name: 'datadog', service_id: serviceId, ...body } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: expect.stringMatching(message) });
    expect(await liveCount()).toBe(before);
  });

  it('when an update has a bad status or an unknown field, then 400 naming it and the source is unchanged', async () => {
    const source = await newSource();
    const bad = await api('PUT', `/sources/${source.id}`, { session: admin(), body: { name: 'renamed', status: 'REVOKED' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^status: must be one of ACTIVE, PAUSED/);
    expect((await api('PUT', `/sources/${source.id}`, { session: admin(), body: { service_id: serviceId } })).status).toBe(400);
    expect((await api('GET', `/sources/${source.id}`, { session: admin() })).body.data.name).toBe('prometheus');
  });

  it('when a change comes without X-CSRF-Token, then 403 csrf_failed and nothing changes', async () => {
    const source = await newSource();
    const before = await liveCount();
    const noCsrf = (method: string, path: string, body?: unknown) => api(method, path, { session: admin(), csrf: null, body });
    for (const res of [
      await noCsrf('POST', '/sources', { name: 'sneaky', service_id: serviceId }),
      await noCsrf('PUT', `/sources/${source.id}`, { status: 'PAUSED' }),
      await noCsrf('POST', `/sources/${source.id}/rotate`),
      await noCsrf('POST', `/sources/${source.id}/rotate-signing-secret`),
      await noCsrf('DELETE', `/sources/${source.id}`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('csrf_failed');
    }
    expect(await liveCount()).toBe(before);
    expect((await sendAlert(source.webhook_url)).status).toBe(202);
  });
});

describe('the audit log', () => {
  it('when a source is created, changed, rotated twice and deleted, then each change is one entry and none holds a secret', async () => {
    const session = ws.as.TEAM_MANAGER;
    const created = (await api('POST', '/sources', { session, body: { name: 'audited', service_id: serviceId, channels: ['email'] } })).body.data;
    await api('PUT', `/sources/${created.id}`, { session, body: { status: 'PAUSED' } });
    const rotated = (await api('POST', `/sources/${created.id}/rotate`, { session })).body.data;
    const signing = (await api('POST', `/sources/${created.id}/rotate-signing-secret`, { session })).body.data;
    await api('DELETE', `/sources/${created.id}`, { session });
    const entries = [];
    for (const action of ['source.create', 'source.update', 'source.rotate', 'source.rotate_signing_secret', 'source.delete']) {
      const mine = (await auditLog(fx.stack, ws.owner, action)).filter((e) => e.target.id === created.id);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ actor: { label: session.email }, target: { type: 'source', id: created.id } });
      entries.push(...mine);
    }
    expect(entries[0].details).toMatchObject({ name: 'audited', service_id: serviceId, channels: ['email'], signed: true });
    expect(entries[1].details).toMatchObject({ status: 'PAUSED' });
    const text = JSON.stringify(entries);
    for (const secret of [created.webhook_url, rotated.webhook_url, created.signing_secret, signing.signing_secret]) {
      expect(text).not.toContain(secret.split('/').pop());
    }
  });
});
