import { randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { SESSION_COOKIE, dashboard, expectDashboardError, memberSession, type DashboardSession } from '../../support/dashboard';
import { measureLoopHold } from '../../support/loop-hold';
import { responder } from '../../support/paging';
import { ReportSeed } from '../../support/report-fixture';
import { startTestStack, type TestStack } from '../../support/stack';
import { seedWorkspace } from '../../support/workspace';

// docs/what-if.md, "Bounds": a hostile draft cannot stall the API or answer gigabytes.
let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack({ worker: false });
});

afterAll(() => stack?.stop());

const MiB = 1024 * 1024;
const PEOPLE = 50;
const INCIDENTS = 30;

/** 50 people paged by SMS at once, and 30 incidents of the service that stayed TRIGGERED (so every step of the draft pages). */
async function hostileWorkspace() {
  const ws = await seedWorkspace(stack.orm);
  const people = [];
  for (let i = 0; i < PEOPLE; i++) people.push(await responder(stack.orm, ws.organizationId, 'sms'));
  const seed = new ReportSeed(stack.orm);
  for (let i = 0; i < INCIDENTS; i++) {
    await seed.incident(ws.organizationId, { serviceId: ws.serviceId, teamId: ws.teamId, createdAt: new Date(Date.now() - 3_600_000 - i * 60_000) });
  }
  const session = await memberSession(stack.urls.app, stack.orm, ws.organizationId, 'MEMBER');
  // 20 steps of all 50 people, a second apart, 10 passes: 10,000 would-pages an incident.
  const targets = people.map((p) => ({ type: 'user', id: p.id }));
  const draft = { steps: Array.from({ length: 20 }, () => ({ delay_seconds: 1, targets })), repeat: 9 };
  const body = { service_id: ws.serviceId, policy: draft, from: new Date(Date.now() - 86_400_000).toISOString(), to: new Date().toISOString() };
  return { ws, people, session, body };
}

interface Part {
  status: number;
  bytes: number;
  retryAfter: string | null;
  body: { data?: Record<string, any>; code?: string; error?: string };
}

/** One simulation's answer as it came: its status, Retry-After and bytes. */
async function post(session: Pick<DashboardSession, 'cookie' | 'csrf'>, body: Record<string, unknown>) {
  const res = await fetch(`${stack.urls.app}/api/escalation-policies/simulate`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: `${SESSION_COOKIE}=${session.cookie}`, 'X-CSRF-Token': session.csrf },
    body: JSON.stringify(body),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), raw: Buffer.from(await res.arrayBuffer()) };
}

/** An answer parsed (apart from receiving it: parsing 5 MiB is the client's work, not the API's). */
const parsed = (a: Awaited<ReturnType<typeof post>>): Part => ({
  status: a.status,
  retryAfter: a.retryAfter,
  bytes: a.raw.length,
  body: JSON.parse(a.raw.toString('utf8')) as Part['body'],
});

const simulate = async (session: Pick<DashboardSession, 'cookie' | 'csrf'>, body: Record<string, unknown>): Promise<Part> => parsed(await post(session, body));

describe('what-if bounds', () => {
  let h: Awaited<ReturnType<typeof hostileWorkspace>>;
  beforeAll(async () => {
    h = await hostileWorkspace();
  }, 120_000);

  it('when a draft of 20 steps × 50 people repeated 9 times is replayed over 30 incidents that stayed TRIGGERED, then it stops at 100,000 pages, answers at most 5 MiB a part with the rest by cursor, and never holds the event loop over 100 ms', async () => {
    // A running API has parsed policies before: the same draft over a range without incidents warms the validation's code, replaying nothing.
    const empty = await simulate(h.session, { ...h.body, from: '2020-01-01T00:00:00Z', to: '2020-01-02T00:00:00Z' });
    expect(empty.body.data).toMatchObject({ incidents: [], truncated: false });

    // This process hosts the API: the loop must never be held over 100 ms (the CPU it burned in one gap).
    const { result, worstMs } = await measureLoopHold(() => post(h.session, h.body));
    const first = parsed(result);

    expect(first.status).toBe(200);
    expect(first.bytes).toBeLessThanOrEqual(5 * MiB);
    expect(worstMs).toBeLessThan(100);
    const data = first.body.data!;
    expect(data).toMatchObject({ truncated: true, truncated_reason: 'pages', incident_count: 10, differing_count: 10, totals_truncated: false });
    expect(data.next_cursor).toEqual(expect.any(String));
    // Totals cover the whole replay: 100,000 pages over 50 people.
    expect(data.totals).toHaveLength(PEOPLE);
    for (const t of data.totals) expect(t).toMatchObject({ would_pages: 2000, actual_pages: 0 });

    // The rest by cursor, each part bounded, every incident once; the oldest ten were replayed.
    const seen: Array<{ incident_id: string; number: number; would_page: unknown[] }> = [...data.incidents];
    let cursor: string | null = data.next_cursor;
    while (cursor) {
      const part = await simulate(h.session, { ...h.body, cursor });
      expect(part.status).toBe(200);
      expect(part.bytes).toBeLessThanOrEqual(5 * MiB);
      expect(part.body.data!.incident_count).toBe(10);
      seen.push(...part.body.data!.incidents);
      cursor = part.body.data!.next_cursor;
    }
    expect(new Set(seen.map((i) => i.incident_id)).size).toBe(10);
    expect(seen.map((i) => i.number).sort((a, b) => a - b)).toEqual([21, 22, 23, 24, 25, 26, 27, 28, 29, 30]);
    expect(seen.reduce((n, i) => n + i.would_page.length, 0)).toBe(100_000);
  }, 120_000);

  it('when three run at once in one workspace, then one is 429 rate_limited with Retry-After, and a later one runs', async () => {
    const three = await Promise.all([0, 1, 2].map(() => simulate(h.session, h.body)));

    expect(three.map((r) => r.status).sort()).toEqual([200, 200, 429]);
    const refused = three.find((r) => r.status === 429)!;
    expect(refused.body).toMatchObject({ success: false, code: 'rate_limited' });
    expect(refused.body.error).toMatch(/already runs 2 simulations/);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(await knexOf(stack.orm)('what_if_runs').where({ organization_id: h.ws.organizationId })).toEqual([]);
    expect((await simulate(h.session, h.body)).status).toBe(200);
  }, 120_000);

  it('when two replays of the workspace hold their places in other API processes, then a third is 429; once those places expire (their process died), it runs', async () => {
    const k = knexOf(stack.orm);
    const elsewhere = (expiresInMs: number) => ({
      id: randomUUID(),
      organization_id: h.ws.organizationId,
      started_at: new Date(),
      expires_at: new Date(Date.now() + expiresInMs),
    });
    const live = [elsewhere(60_000), elsewhere(60_000)];
    await k('what_if_runs').insert(live);
    expectDashboardError(await dashboard(stack.urls.app, 'POST', '/escalation-policies/simulate', { session: h.session, body: h.body }), 429, 'rate_limited');

    await k('what_if_runs')
      .whereIn(
        'id',
        live.map((r) => r.id),
      )
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect((await simulate(h.session, h.body)).status).toBe(200);
    expect(await k('what_if_runs').where({ organization_id: h.ws.organizationId })).toEqual([]);
  }, 60_000);

  it('when the cursor is forged, too long, or from another request, then 400 names cursor and nothing is replayed', async () => {
    const first = await simulate(h.session, h.body);
    const cursor = first.body.data!.next_cursor as string;
    const post = (body: Record<string, unknown>) => dashboard(stack.urls.app, 'POST', '/escalation-policies/simulate', { session: h.session, body });

    expectDashboardError(await post({ ...h.body, cursor: 'bm90IGEgY3Vyc29y' }), 400, 'invalid_request', /^cursor: /);
    expectDashboardError(await post({ ...h.body, cursor: 'x'.repeat(300) }), 400, 'invalid_request', /^cursor: /);
    expectDashboardError(await post({ ...h.body, cursor: 'a b' }), 400, 'invalid_request', /^cursor: /);
    const otherRange = { ...h.body, from: new Date(Date.now() - 2 * 86_400_000).toISOString(), cursor };
    expectDashboardError(await post(otherRange), 400, 'invalid_request', /^cursor: must be the next_cursor of an earlier answer to this same request/);
    expect(await knexOf(stack.orm)('what_if_runs').where({ organization_id: h.ws.organizationId })).toEqual([]);
  }, 60_000);

  it('when an ordinary simulation fits in one answer, then it is one part, oldest first, with no cursor', async () => {
    const draft = { steps: [{ delay_seconds: 60, targets: [{ type: 'user', id: h.people[0].id }] }], repeat: 0 };

    const res = await simulate(h.session, { ...h.body, policy: draft });

    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      truncated: false,
      truncated_reason: null,
      incident_count: INCIDENTS,
      next_cursor: null,
      totals: [{ user_id: h.people[0].id, would_pages: INCIDENTS, actual_pages: 0 }],
    });
    const numbers = res.body.data!.incidents.map((i: { number: number }) => i.number);
    expect(numbers).toEqual([...numbers].sort((a: number, b: number) => b - a));
  });
});
