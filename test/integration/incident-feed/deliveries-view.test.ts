import { randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { catalogWorkspace, type CatalogWorkspace } from '../../support/catalog';
import { dashboardFixture, expectDashboardError } from '../../support/dashboard';

const fx = dashboardFixture();
const { api } = fx;
let ws: CatalogWorkspace;
let other: CatalogWorkspace;
let hookId: string;
const HOOK_URL = 'https://hooks.example.test/klaxon?token=do-not-show';

const db = () => knexOf(fx.stack.orm);
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
/** Never due while the test runs: the stack's consumers leave pending rows alone. */
const later = () => new Date(Date.now() + 3_600_000);

function row(organizationId: string, consumer: string, targetId: string, over: Record<string, unknown>) {
  const eventId = randomUUID();
  return {
    id: randomUUID(),
    consumer,
    target_id: targetId,
    organization_id: organizationId,
    event_id: eventId,
    incident_id: randomUUID(),
    type: 'incident.triggered',
    event: JSON.stringify({ id: eventId }),
    ...over,
  };
}

let rows: Array<ReturnType<typeof row>>;
beforeAll(async () => {
  ws = await catalogWorkspace(fx.stack, { plan: 'PRO' });
  other = await catalogWorkspace(fx.stack, { plan: 'PRO' });
  const created = await api('POST', '/outgoing-webhooks', { session: ws.as.ACCOUNT_ADMIN, body: { url: HOOK_URL } });
  expect(created.status).toBe(201);
  hookId = created.body.data.id;
  // Oldest first: lane_seq follows the insert.
  rows = [
    row(ws.organizationId, 'outgoing-webhooks', hookId, { attempts: 1, delivered_at: minutesAgo(9), last_status_code: 200 }),
    row(ws.organizationId, 'slack', 'C0VIEW0001', {
      attempts: 0,
      parked_at: minutesAgo(8),
      skipped_at: minutesAgo(8),
      last_error: 'skipped: Slack is not connected',
    }),
    row(ws.organizationId, 'microsoft-teams', randomUUID(), { attempts: 8, parked_at: minutesAgo(7), last_status_code: 502, last_error: 'answered 502' }),
    row(ws.organizationId, 'slack', 'C0VIEW0001', { type: 'incident.acknowledged', attempts: 2, next_attempt_at: later(), last_error: 'ratelimited' }),
    row(ws.organizationId, 'outgoing-webhooks', hookId, { attempts: 3, next_attempt_at: later(), last_status_code: 503, last_error: 'answered 503' }),
  ];
  for (const r of rows) await db()('feed_deliveries').insert(r);
  await db()('feed_deliveries').insert(row(other.organizationId, 'slack', 'C0OTHER001', { next_attempt_at: later() }));
});

const list = (query = '', session = ws.as.ACCOUNT_ADMIN) => api('GET', `/deliveries${query}`, { session });
const ids = (res: { body: { data: Array<{ id: string }> } }) => res.body.data.map((d) => d.id);

describe('GET /api/deliveries: every feed consumer in one view', () => {
  it('when an admin lists them, then every consumer’s rows of the workspace come newest first with their outcome, and never a URL nor another workspace’s row', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([...rows].reverse().map((r) => r.id));
    expect(res.body.data[0]).toEqual({
      id: rows[4].id,
      consumer: 'outgoing-webhooks',
      target_id: hookId,
      event_id: rows[4].event_id,
      incident_id: rows[4].incident_id,
      type: 'incident.triggered',
      status: 'pending',
      attempts: 3,
      last_status_code: 503,
      last_error: 'answered 503',
      created_at: expect.any(String),
      next_attempt_at: expect.any(String),
      delivered_at: null,
      parked_at: null,
      skipped: false,
    });
    expect(res.body.data.map((d: { consumer: string; status: string; skipped: boolean }) => [d.consumer, d.status, d.skipped])).toEqual([
      ['outgoing-webhooks', 'pending', false],
      ['slack', 'pending', false],
      ['microsoft-teams', 'parked', false],
      ['slack', 'parked', true],
      ['outgoing-webhooks', 'delivered', false],
    ]);
    expect(res.body.meta).toEqual({ next_cursor: null });
    expect(JSON.stringify(res.body)).not.toContain('hooks.example.test');
  });

  it('when filtered by consumer and status, then only those rows come', async () => {
    expect(ids(await list('?consumer=slack&status=pending'))).toEqual([rows[3].id]);
    expect(ids(await list('?status=parked'))).toEqual([rows[2].id, rows[1].id]);
    expect(ids(await list('?consumer=outgoing-webhooks&status=delivered'))).toEqual([rows[0].id]);
    expect(ids(await list('?consumer=discord'))).toEqual([]);
  });

  it('when read a page at a time, then the cursor walks every row once, in order', async () => {
    const seen: string[] = [];
    let query = '?limit=2';
    for (let page = 0; page < 5; page++) {
      const res = await list(query);
      expect(res.status).toBe(200);
      seen.push(...ids(res));
      if (!res.body.meta.next_cursor) break;
      query = `?limit=2&cursor=${res.body.meta.next_cursor}`;
    }
    expect(seen).toEqual([...rows].reverse().map((r) => r.id));
  });

  it('when a member or a Team Manager asks, then 403', async () => {
    expectDashboardError(await list('', ws.as.MEMBER), 403, 'forbidden');
    expectDashboardError(await list('', ws.as.TEAM_MANAGER), 403, 'forbidden');
  });

  it.each([
    ['a consumer that is not a key', '?consumer=Slack%21', /^consumer: /],
    ['a consumer over 40 characters', `?consumer=${'a'.repeat(41)}`, /^consumer: /],
    ['an unknown status', '?status=stuck', /^status: /],
    ['a cursor that is not a number', '?cursor=abc', /^cursor: must be the next_cursor/],
    ['a limit of 0', '?limit=0', /^limit: /],
    ['a limit over 200', '?limit=201', /^limit: /],
    ['an unknown parameter', '?target_url=x', /target_url/],
  ])('when the query has %s, then 400 naming the field', async (_what, query, message) => {
    expectDashboardError(await list(query), 400, 'invalid_request', message);
  });
});

describe("§14's per-webhook deliveries log, on the one queue", () => {
  it('when an admin reads a subscription’s deliveries, then they are its rows only, as before', async () => {
    const res = await api('GET', `/outgoing-webhooks/${hookId}/deliveries`, { session: ws.as.ACCOUNT_ADMIN });
    expect(res.status).toBe(200);
    expect(res.body.data.map((d: { id: string }) => d.id).sort()).toEqual([rows[0].id, rows[4].id].sort());
    expect(Object.keys(res.body.data[0]).sort()).toEqual(
      ['attempts', 'delivered_at', 'event_id', 'id', 'last_error', 'last_status_code', 'latency_ms', 'next_attempt_at', 'type'].sort(),
    );
    expect(res.body.meta.total).toBe(2);
  });
});
