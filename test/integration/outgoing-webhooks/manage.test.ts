import { knexOf } from '../../../src/db/knex';
import { INCIDENT_EVENT_TYPES } from '../../../src/domain/incident-events';
import { createSealer } from '../../../src/services/sealing/seal';
import { setPlan } from '../../../src/services/workspace';
import { auditLog, catalogWorkspace, countIn, type CatalogWorkspace } from '../../support/catalog';
import { dashboardFixture, expectDashboardError } from '../../support/dashboard';
import { TEST_SECRET } from '../../support/stack';

// The default configuration: private targets refused (ALLOW_PRIVATE_TARGETS unset).
const fx = dashboardFixture();
const { api } = fx;
let ws: CatalogWorkspace;
let teamService: string;
let otherTeamService: string;

beforeAll(async () => {
  ws = await catalogWorkspace(fx.stack, { plan: 'PRO' });
  teamService = (await api('POST', '/services', { session: ws.as.ACCOUNT_ADMIN, body: { name: 'Payments API', team_id: ws.team.id } })).body.data.id;
  otherTeamService = (await api('POST', '/services', { session: ws.as.ACCOUNT_ADMIN, body: { name: 'Search API', team_id: ws.otherTeam.id } })).body.data.id;
});

const db = () => knexOf(fx.stack.orm);
const admin = () => ws.as.ACCOUNT_ADMIN;
const body = (over: Record<string, unknown> = {}) => ({ url: 'https://hooks.example.test/klaxon?token=abc', description: 'our bus', ...over });
const create = async (over: Record<string, unknown> = {}, session = admin()) => {
  const res = await api('POST', '/outgoing-webhooks', { session, body: body(over) });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; secret: string; url: string };
};
const count = () => countIn(fx.stack, 'outgoing_webhooks', ws.organizationId);

describe('creating and reading a subscription', () => {
  it('when created, then the answer carries its secret (whsec_ + 32 bytes) once; reads never show it; the database holds it sealed', async () => {
    const res = await api('POST', '/outgoing-webhooks', { session: admin(), body: body() });
    expect(res.status).toBe(201);
    const created = res.body.data;
    expect(created).toEqual({
      id: expect.any(String),
      url: 'https://hooks.example.test/klaxon?token=abc',
      description: 'our bus',
      event_types: [...INCIDENT_EVENT_TYPES],
      service_ids: [],
      enabled: true,
      created_at: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(Buffer.from(created.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);

    const { secret, ...view } = created;
    expect((await api('GET', `/outgoing-webhooks/${created.id}`, { session: admin() })).body.data).toEqual(view);
    const list = await api('GET', '/outgoing-webhooks', { session: admin() });
    expect(list.body.data).toContainEqual(view);
    expect(JSON.stringify(list.body)).not.toContain(secret);

    const row = await db()('outgoing_webhooks').where({ id: created.id }).first();
    expect(row.secret_sealed).not.toContain(secret);
    expect(row.secret_sealed).not.toContain(secret.slice(6));
    expect(createSealer(TEST_SECRET).open(row.secret_sealed)).toBe(secret);
    expect(row).toMatchObject({ event_types: null, service_ids: null, created_by: admin().userId });
  });

  it('when created with event types and services, then they are kept as given (without repeats) and answered as lists', async () => {
    const h = await create({
      event_types: ['incident.triggered', 'incident.resolved', 'incident.triggered'],
      service_ids: [teamService],
      enabled: false,
      description: undefined,
    });
    expect(await db()('outgoing_webhooks').where({ id: h.id }).first()).toMatchObject({
      event_types: ['incident.triggered', 'incident.resolved'],
      service_ids: [teamService],
      enabled: false,
      description: null,
    });
    expect((await api('GET', `/outgoing-webhooks/${h.id}`, { session: admin() })).body.data).toMatchObject({
      event_types: ['incident.triggered', 'incident.resolved'],
      service_ids: [teamService],
      enabled: false,
    });
  });

  it('when another workspace’s subscription is named, or a bad id, then 404 / 400', async () => {
    const other = await catalogWorkspace(fx.stack);
    const theirs = await create({}, other.as.ACCOUNT_ADMIN);
    expectDashboardError(await api('GET', `/outgoing-webhooks/${theirs.id}`, { session: admin() }), 404, 'not_found');
    expectDashboardError(await api('PUT', `/outgoing-webhooks/${theirs.id}`, { session: admin(), body: { enabled: false } }), 404, 'not_found');
    expectDashboardError(await api('DELETE', `/outgoing-webhooks/${theirs.id}`, { session: admin() }), 404, 'not_found');
    expect((await api('GET', '/outgoing-webhooks/nope', { session: admin() })).status).toBe(400);
    expect((await api('GET', '/outgoing-webhooks', { session: admin() })).body.data.map((h: { id: string }) => h.id)).not.toContain(theirs.id);
  });
});

describe('changing and deleting', () => {
  it('when updated, then only the fields given change; null event types means all again; the secret stays', async () => {
    const h = await create({ event_types: ['incident.triggered'] });
    const before = await db()('outgoing_webhooks').where({ id: h.id }).first();
    const res = await api('PUT', `/outgoing-webhooks/${h.id}`, {
      session: admin(),
      body: { url: 'https://other.example.test/in', enabled: false, event_types: null },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: h.id,
      url: 'https://other.example.test/in',
      description: 'our bus',
      enabled: false,
      event_types: [...INCIDENT_EVENT_TYPES],
    });
    expect(res.body.data.secret).toBeUndefined();
    const after = await db()('outgoing_webhooks').where({ id: h.id }).first();
    expect(after.secret_sealed).toBe(before.secret_sealed);
    expect((await api('PUT', `/outgoing-webhooks/${h.id}`, { session: admin(), body: { enabled: true } })).body.data.enabled).toBe(true);
  });

  it('when deleted, then it and its deliveries are gone', async () => {
    const h = await create();
    expect((await api('POST', `/outgoing-webhooks/${h.id}/test`, { session: admin() })).status).toBe(202);
    const res = await api('DELETE', `/outgoing-webhooks/${h.id}`, { session: admin() });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: h.id, deleted: true });
    expect(await db()('outgoing_webhooks').where({ id: h.id }).first()).toBeUndefined();
    expect(await db()('feed_deliveries').where({ consumer: 'outgoing-webhooks', target_id: h.id })).toEqual([]);
    expectDashboardError(await api('GET', `/outgoing-webhooks/${h.id}`, { session: admin() }), 404, 'not_found');
  });
});

describe('who may manage outgoing webhooks', () => {
  it('when a Billing Owner or an Account Admin creates an all-services subscription, then it is allowed', async () => {
    await create({}, ws.as.BILLING_OWNER);
    await create({}, ws.as.ACCOUNT_ADMIN);
  });

  it('when a Member lists, reads, creates, changes, tests or deletes, then 403 forbidden and nothing is stored or changed', async () => {
    const h = await create();
    const before = await count();
    const m = ws.as.MEMBER;
    expectDashboardError(await api('POST', '/outgoing-webhooks', { session: m, body: body() }), 403, 'forbidden');
    expectDashboardError(await api('POST', '/outgoing-webhooks', { session: m, body: body({ service_ids: [teamService] }) }), 403, 'forbidden');
    expectDashboardError(await api('GET', '/outgoing-webhooks', { session: m }), 403, 'forbidden');
    expectDashboardError(await api('GET', `/outgoing-webhooks/${h.id}`, { session: m }), 403, 'forbidden');
    expectDashboardError(await api('PUT', `/outgoing-webhooks/${h.id}`, { session: m, body: { enabled: false } }), 403, 'forbidden');
    expectDashboardError(await api('POST', `/outgoing-webhooks/${h.id}/test`, { session: m }), 403, 'forbidden');
    expectDashboardError(await api('GET', `/outgoing-webhooks/${h.id}/deliveries`, { session: m }), 403, 'forbidden');
    expectDashboardError(await api('DELETE', `/outgoing-webhooks/${h.id}`, { session: m }), 403, 'forbidden');
    expect(await count()).toBe(before);
    expect(await db()('outgoing_webhooks').where({ id: h.id }).first()).toMatchObject({ enabled: true });
    expect(await db()('feed_deliveries').where({ consumer: 'outgoing-webhooks', target_id: h.id })).toEqual([]);
  });

  it('when a Team Manager subscribes to their team’s services, then allowed; to all services or another team’s, then 403 and nothing stored', async () => {
    const tm = ws.as.TEAM_MANAGER;
    const mine = await create({ service_ids: [teamService] }, tm);
    const before = await count();
    expectDashboardError(await api('POST', '/outgoing-webhooks', { session: tm, body: body() }), 403, 'forbidden');
    expectDashboardError(await api('POST', '/outgoing-webhooks', { session: tm, body: body({ service_ids: [] }) }), 403, 'forbidden');
    expectDashboardError(
      await api('POST', '/outgoing-webhooks', { session: tm, body: body({ service_ids: [teamService, otherTeamService] }) }),
      403,
      'forbidden',
    );
    expect(await count()).toBe(before);

    // They see, change and test theirs; they neither see nor touch an all-services one, nor widen theirs.
    const all = await create();
    const list = (await api('GET', '/outgoing-webhooks', { session: tm })).body.data.map((h: { id: string }) => h.id);
    expect(list).toContain(mine.id);
    expect(list).not.toContain(all.id);
    expect((await api('PUT', `/outgoing-webhooks/${mine.id}`, { session: tm, body: { description: 'ours' } })).status).toBe(200);
    expect((await api('POST', `/outgoing-webhooks/${mine.id}/test`, { session: tm })).status).toBe(202);
    expectDashboardError(await api('PUT', `/outgoing-webhooks/${mine.id}`, { session: tm, body: { service_ids: null } }), 403, 'forbidden');
    expectDashboardError(await api('GET', `/outgoing-webhooks/${all.id}`, { session: tm }), 403, 'forbidden');
    expectDashboardError(await api('PUT', `/outgoing-webhooks/${all.id}`, { session: tm, body: { enabled: false } }), 403, 'forbidden');
    expectDashboardError(await api('DELETE', `/outgoing-webhooks/${all.id}`, { session: tm }), 403, 'forbidden');
    expect(await db()('outgoing_webhooks').where({ id: mine.id }).first()).toMatchObject({ service_ids: [teamService] });
    // The other team's manager may not touch this team's subscription.
    expectDashboardError(await api('GET', `/outgoing-webhooks/${mine.id}`, { session: ws.as.OTHER_TEAM_MANAGER }), 403, 'forbidden');
    expect((await api('DELETE', `/outgoing-webhooks/${mine.id}`, { session: tm })).status).toBe(200);
  });
});

describe('plans', () => {
  it('when a FREE workspace creates one, then 403 plan_limit_reached and nothing is stored', async () => {
    const free = await catalogWorkspace(fx.stack, { plan: 'FREE' });
    expectDashboardError(
      await api('POST', '/outgoing-webhooks', { session: free.as.BILLING_OWNER, body: body() }),
      403,
      'plan_limit_reached',
      /FREE plan does not include outgoing webhooks/,
    );
    expect(await countIn(fx.stack, 'outgoing_webhooks', free.organizationId)).toBe(0);
  });

  it('when a STARTER workspace holds 5, then a sixth is refused (403 plan_limit_reached) and nothing stored; after an upgrade it is allowed', async () => {
    const starter = await catalogWorkspace(fx.stack, { plan: 'STARTER' });
    for (let i = 0; i < 5; i++) await create({ description: `n${i}` }, starter.as.ACCOUNT_ADMIN);
    expectDashboardError(
      await api('POST', '/outgoing-webhooks', { session: starter.as.ACCOUNT_ADMIN, body: body() }),
      403,
      'plan_limit_reached',
      /STARTER plan allows 5 outgoing webhooks/,
    );
    expect(await countIn(fx.stack, 'outgoing_webhooks', starter.organizationId)).toBe(5);
    await setPlan(fx.stack.orm, starter.organizationId, 'PRO');
    await create({}, starter.as.ACCOUNT_ADMIN);
  });
});

describe('bad input', () => {
  it.each([
    ['an unknown event type', { event_types: ['incident.triggered', 'incident.exploded'] }, /^event_types\.1: must be event types/],
    ['an empty event type list', { event_types: [] }, /^event_types: must list at least one/],
    ['a non-https URL', { url: 'http://hooks.example.test/' }, /^url: must be an https:\/\/ URL/],
    ['a non-HTTP URL', { url: 'ftp://hooks.example.test/' }, /^url: must be an https:\/\/ URL/],
    ['a private address', { url: 'https://10.0.0.7/hook' }, /^url: targets a private address \(private\)/],
    ['localhost', { url: 'https://localhost:8443/hook' }, /^url: targets a private address \(localhost\)/],
    ['loopback as a number', { url: 'https://2130706433/hook' }, /^url: targets a private address \(loopback\)/],
    ['the cloud metadata address', { url: 'https://169.254.169.254/latest/meta-data/' }, /^url: targets a private address \(linkLocal\)/],
    ['a metadata name', { url: 'https://metadata.google.internal/computeMetadata/v1/' }, /^url: targets a cloud metadata address/],
    ['credentials in the URL', { url: 'https://u:p@hooks.example.test/' }, /^url: must not contain a user name or password/],
    ['a URL over 2048 characters', { url: `https://hooks.example.test/${'a'.repeat(2048)}` }, /^url: must be at most 2048 characters/],
    ['a description over 500 characters', { description: 'd'.repeat(501) }, /^description: must be at most 500 characters/],
    ['a service id that is not a UUID', { service_ids: ['payments'] }, /^service_ids\.0: must be UUIDs/],
    [
      'an unknown service id',
      { service_ids: ['00000000-0000-4000-8000-000000000000'] },
      /^service_ids: no service 00000000-0000-4000-8000-000000000000 in this workspace/,
    ],
    [
      'over 100 services',
      { service_ids: Array.from({ length: 101 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`) },
      /^service_ids: must list at most 100/,
    ],
    ['enabled as a string', { enabled: 'yes' }, /^enabled: /],
    ['an unknown field', { secret: 'whsec_mine' }, /"secret"/],
  ])('when the body has %s, then 400 naming the field and nothing is stored', async (_what, over, message) => {
    const before = await count();
    expectDashboardError(await api('POST', '/outgoing-webhooks', { session: admin(), body: body(over) }), 400, 'invalid_request', message);
    expect(await count()).toBe(before);
  });

  it('when a change has bad input, then 400 naming the field and it stays as it was', async () => {
    const h = await create({ event_types: ['incident.resolved'] });
    expectDashboardError(
      await api('PUT', `/outgoing-webhooks/${h.id}`, { session: admin(), body: { url: 'https://192.168.1.10/' } }),
      400,
      'invalid_request',
      /^url: targets a private address/,
    );
    expectDashboardError(
      await api('PUT', `/outgoing-webhooks/${h.id}`, { session: admin(), body: { event_types: ['nope'] } }),
      400,
      'invalid_request',
      /^event_types\.0: /,
    );
    expectDashboardError(
      await api('PUT', `/outgoing-webhooks/${h.id}`, { session: admin(), body: { service_ids: ['00000000-0000-4000-8000-000000000000'] } }),
      400,
      'invalid_request',
      /^service_ids: /,
    );
    expect(await db()('outgoing_webhooks').where({ id: h.id }).first()).toMatchObject({
      url: body().url,
      event_types: ['incident.resolved'],
      service_ids: null,
    });
  });
});

describe('test pings, the delivery log and redelivery', () => {
  it('when tested, then a ping delivery is queued (due now, no incident) and listed; redelivering makes a new row with the same event_id', async () => {
    const h = await create();
    const res = await api('POST', `/outgoing-webhooks/${h.id}/test`, { session: admin() });
    expect(res.status).toBe(202);
    const ping = res.body.data;
    expect(ping).toEqual({
      id: expect.any(String),
      event_id: expect.any(String),
      type: 'ping',
      attempts: 0,
      last_status_code: null,
      last_error: null,
      latency_ms: null,
      delivered_at: null,
      next_attempt_at: expect.any(String),
    });
    const row = await db()('feed_deliveries').where({ id: ping.id }).first();
    // The delivery engine may already be at it (this name never resolves): what was written is checked, not its progress.
    expect(row).toMatchObject({
      consumer: 'outgoing-webhooks',
      target_id: h.id,
      organization_id: ws.organizationId,
      event_id: ping.event_id,
      incident_id: null,
      type: 'ping',
      delivered_at: null,
    });
    expect(row.event).toEqual({
      id: ping.event_id,
      type: 'ping',
      created_at: expect.any(String),
      organization_id: ws.organizationId,
      incident: null,
      actor: null,
      data: {},
    });
    expect(new Date(ping.next_attempt_at).getTime()).toBeLessThanOrEqual(Date.now() + 1000);

    const again = await api('POST', `/outgoing-webhooks/${h.id}/deliveries/${ping.id}/redeliver`, { session: admin() });
    expect(again.status).toBe(202);
    expect(again.body.data).toMatchObject({ type: 'ping', event_id: ping.event_id, attempts: 0, delivered_at: null });
    expect(again.body.data.id).not.toBe(ping.id);
    const copy = await db()('feed_deliveries').where({ id: again.body.data.id }).first();
    expect(copy).toMatchObject({
      consumer: 'outgoing-webhooks',
      target_id: h.id,
      organization_id: ws.organizationId,
      event_id: ping.event_id,
      incident_id: null,
      type: 'ping',
      event: row.event,
      delivered_at: null,
    });

    const log = await api('GET', `/outgoing-webhooks/${h.id}/deliveries?limit=1`, { session: admin() });
    expect(log.status).toBe(200);
    expect(log.body.data.map((d: { id: string }) => d.id)).toEqual([again.body.data.id]);
    expect(log.body.meta).toEqual({ total: 2, limit: 1, offset: 0 });
    const all = await api('GET', `/outgoing-webhooks/${h.id}/deliveries`, { session: admin() });
    expect(all.body.data.map((d: { id: string }) => d.id)).toEqual([again.body.data.id, ping.id]);
  });

  it('when a delivery of another subscription is redelivered through this one, then 404 and nothing is queued', async () => {
    const a = await create();
    const b = await create();
    const ping = (await api('POST', `/outgoing-webhooks/${a.id}/test`, { session: admin() })).body.data;
    expectDashboardError(await api('POST', `/outgoing-webhooks/${b.id}/deliveries/${ping.id}/redeliver`, { session: admin() }), 404, 'not_found');
    expect(await db()('feed_deliveries').where({ consumer: 'outgoing-webhooks' }).whereIn('target_id', [a.id, b.id])).toHaveLength(1);
  });
});

describe('the audit log', () => {
  it('when a subscription is created, changed, tested, redelivered and deleted, then each is an entry without its secret or URL query', async () => {
    const h = await create();
    await api('PUT', `/outgoing-webhooks/${h.id}`, { session: admin(), body: { enabled: false } });
    const ping = (await api('POST', `/outgoing-webhooks/${h.id}/test`, { session: admin() })).body.data;
    await api('POST', `/outgoing-webhooks/${h.id}/deliveries/${ping.id}/redeliver`, { session: admin() });
    await api('DELETE', `/outgoing-webhooks/${h.id}`, { session: admin() });
    const of = async (action: string) => (await auditLog(fx.stack, ws.as.BILLING_OWNER, action)).find((e) => e.target.id === h.id);
    expect(await of('outgoing_webhook.create')).toMatchObject({
      target: { type: 'outgoing_webhook', id: h.id },
      details: { url: 'https://hooks.example.test/klaxon', event_types: null, service_ids: null, enabled: true },
    });
    expect(await of('outgoing_webhook.update')).toMatchObject({ details: { enabled: false } });
    expect(await of('outgoing_webhook.test')).toMatchObject({ details: { delivery_id: ping.id, event_id: ping.event_id } });
    expect(await of('outgoing_webhook.redeliver')).toMatchObject({ details: { redelivery_of: ping.id, event_id: ping.event_id } });
    expect(await of('outgoing_webhook.delete')).toMatchObject({ details: { url: 'https://hooks.example.test/klaxon' } });
    const entries = JSON.stringify(await auditLog(fx.stack, ws.as.BILLING_OWNER, 'outgoing_webhook.create'));
    expect(entries).not.toContain(h.secret);
    expect(entries).not.toContain('token=abc');
  });
});
