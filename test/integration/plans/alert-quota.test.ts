import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { knexOf } from '../../../src/db/knex';
import { nextPeriodStart, usagePeriod } from '../../../src/domain/plans';
import { createSource } from '../../../src/services/ingest/sources';
import { setPlan } from '../../../src/services/workspace/workspaces';
import { request } from '../../support/http';
import { apiKeyFor, expectEnvelopeError } from '../../support/api-key';
import { sendRaw } from '../../support/raw-http';
import { startTestStack, type TestStack } from '../../support/stack';
import { sleep, waitFor } from '../../support/wait';
import { addMember, seedWorkspace } from '../../support/workspace';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.stop());

const k = () => knexOf(stack.orm);
const nativeFixture = (name: string) => readFileSync(path.resolve(__dirname, '../../fixtures/native', name), 'utf8');
const RESET_DATE = nextPeriodStart(new Date()).toISOString().slice(0, 10);

/** A FREE workspace with one ingestion URL, and one person of each role (the seeded admin is an Account Admin). */
async function freeWorkspace(plan: 'FREE' | 'PRO' = 'FREE') {
  const ws = await seedWorkspace(stack.orm); // seeded on PRO: it mints API tokens
  await setPlan(stack.orm, ws.organizationId, plan);
  const owner = await addMember(stack.orm, ws.organizationId, 'BILLING_OWNER');
  const manager = await addMember(stack.orm, ws.organizationId, 'TEAM_MANAGER');
  const member = await addMember(stack.orm, ws.organizationId, 'MEMBER');
  const source = await createSource(stack.orm, {
    organizationId: ws.organizationId,
    serviceId: ws.serviceId,
    name: `quota ${randomUUID().slice(0, 6)}`,
    ingestBaseUrl: stack.urls.ingest,
  });
  return { ...ws, owner, manager, member, source };
}

const post = (url: string, body: unknown = { title: `Disk full ${randomUUID().slice(0, 6)}` }, headers: Record<string, string> = {}) =>
  request('POST', url, { body, headers });

/** What a workspace has stored: the rows a refused request must not add to. */
async function storedBy(organizationId: string) {
  const count = async (q: any) => Number((await q.count({ n: '*' }))[0].n);
  return {
    alerts: await count(k()('alerts').where({ organization_id: organizationId })),
    incidents: await count(k()('incidents').where({ organization_id: organizationId })),
    outbox: await count(k()('ingest_outbox as o').join('incidents as i', 'i.id', 'o.incident_id').where('i.organization_id', organizationId)),
    idempotency: await count(k()('idempotency_records as r').join('alert_sources as s', 's.id', 'r.source_id').where('s.organization_id', organizationId)),
  };
}

const usageOf = (organizationId: string) =>
  k()('plan_usage')
    .where({ organization_id: organizationId, period: usagePeriod(new Date()) })
    .first();
/** The usage emails one address received, by subject. */
const usageEmailsTo = async (to: string): Promise<string[]> =>
  (await k()('dev_deliveries').select('subject').where({ channel: 'email', to }).orderBy('created_at'))
    .map((r: { subject: string }) => r.subject)
    .filter((s: string) => /alerts/.test(s));

function expectQuotaAnswer(res: { status: number; body: unknown; headers: Headers }) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ message: expect.stringContaining(`resets on ${RESET_DATE}`), code: 'plan_limit_reached' });
  const retryAfter = Number(res.headers.get('retry-after'));
  const untilReset = (nextPeriodStart(new Date()).getTime() - Date.now()) / 1000;
  expect(retryAfter).toBeGreaterThan(untilReset - 60);
  expect(retryAfter).toBeLessThanOrEqual(Math.ceil(untilReset) + 1);
}

describe('the FREE plan stores 50 alerts a month', () => {
  it('when a FREE workspace has stored 50 alerts this month, then the 51st is 429 plan_limit_reached naming the reset date, and nothing of it is stored', async () => {
    const ws = await freeWorkspace();
    for (let i = 0; i < 50; i++) expect((await post(ws.source.ingest_url)).status).toBe(202);
    const before = await storedBy(ws.organizationId);
    expect(before.alerts).toBe(50);

    expectQuotaAnswer(await post(ws.source.ingest_url, { title: 'one too many' }, { 'Idempotency-Key': 'over-quota-1' }));
    expectQuotaAnswer(await post(ws.source.ingest_url, { title: 'one too many', dedup_key: 'k' }));

    expect(await storedBy(ws.organizationId)).toEqual(before);
    expect((await usageOf(ws.organizationId)).alerts).toBe(50);
  });

  it('when 60 alerts arrive at once on a FREE workspace, then exactly 50 are stored and 10 refused', async () => {
    const ws = await freeWorkspace();
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => post(ws.source.ingest_url, { title: `burst ${i}` })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(50);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    expect((await storedBy(ws.organizationId)).alerts).toBe(50);
    expect((await usageOf(ws.organizationId)).alerts).toBe(50);
  });

  it('when the month reaches 40 and then 50 alerts, then each Billing Owner and Account Admin gets one email at each, and nobody else any', async () => {
    const ws = await freeWorkspace();
    // At once, so two batches race to cross the thresholds: each email still goes once.
    await Promise.all(Array.from({ length: 39 }, (_, i) => post(ws.source.ingest_url, { title: `warm ${i}` })));
    await sleep(500);
    expect(await usageEmailsTo(ws.admin.email)).toEqual([]);

    expect((await post(ws.source.ingest_url)).status).toBe(202); // the 40th: 80 %
    const eighty = await waitFor(
      async () => {
        const got = await usageEmailsTo(ws.owner.email);
        return got.length ? got : undefined;
      },
      10_000,
      'the 80 % email',
    );
    expect(eighty).toEqual([expect.stringMatching(/has used 80 % of its FREE plan's alerts this month/)]);

    await Promise.all(Array.from({ length: 15 }, () => post(ws.source.ingest_url))); // to 50 and past it
    await waitFor(async () => (await usageEmailsTo(ws.admin.email)).length === 2 || undefined, 10_000, 'the 100 % email');
    await sleep(500); // any duplicate would have come by now
    for (const admin of [ws.owner, ws.admin]) {
      expect(await usageEmailsTo(admin.email)).toEqual([
        expect.stringMatching(/has used 80 % of its FREE plan's alerts this month/),
        expect.stringMatching(/has used all 50 alerts of its FREE plan this month/),
      ]);
    }
    const full = await k()('dev_deliveries').where({ channel: 'email', to: ws.owner.email }).orderBy('created_at', 'desc').first();
    expect(full.body).toContain(`resets on ${RESET_DATE}`);
    for (const other of [ws.manager, ws.member]) expect(await usageEmailsTo(other.email)).toEqual([]);
    const usage = await usageOf(ws.organizationId);
    expect(usage.alerts).toBe(50);
    expect(usage.notified_80_at).not.toBeNull();
    expect(usage.notified_100_at).not.toBeNull();
  });

  it('when a PRO workspace stores alerts, then nothing is counted and nobody is emailed', async () => {
    const ws = await freeWorkspace('PRO');
    await Promise.all(Array.from({ length: 55 }, () => post(ws.source.ingest_url).then((r) => expect(r.status).toBe(202))));
    expect((await storedBy(ws.organizationId)).alerts).toBe(55);
    expect(await usageOf(ws.organizationId)).toBeUndefined();
    expect(await usageEmailsTo(ws.owner.email)).toEqual([]);
  });

  it('when a PRO workspace with 60 alerts this month moves to FREE, then new alerts are refused until the reset and nothing stored is deleted', async () => {
    const ws = await freeWorkspace('PRO');
    await Promise.all(Array.from({ length: 60 }, () => post(ws.source.ingest_url)));
    await setPlan(stack.orm, ws.organizationId, 'FREE');
    const before = await storedBy(ws.organizationId);
    expect(before.alerts).toBe(60);
    expectQuotaAnswer(await post(ws.source.ingest_url));
    expect(await storedBy(ws.organizationId)).toEqual(before);
  });

  it('when a FREE workspace moves to PRO, stores more alerts and comes back to FREE in the same month, then the alerts stored on PRO count', async () => {
    const ws = await freeWorkspace('FREE');
    await Promise.all(Array.from({ length: 10 }, () => post(ws.source.ingest_url).then((r) => expect(r.status).toBe(202))));
    expect((await usageOf(ws.organizationId)).alerts).toBe(10);
    await setPlan(stack.orm, ws.organizationId, 'PRO');
    await Promise.all(Array.from({ length: 45 }, () => post(ws.source.ingest_url).then((r) => expect(r.status).toBe(202))));
    await setPlan(stack.orm, ws.organizationId, 'FREE');
    expect((await usageOf(ws.organizationId)).alerts).toBe(50);
    const before = await storedBy(ws.organizationId);
    expectQuotaAnswer(await post(ws.source.ingest_url));
    expect(await storedBy(ws.organizationId)).toEqual(before);
  });

  it('when a FREE workspace is at its quota, then replays of accepted requests and resolves (Alertmanager) still answer, and count nothing', async () => {
    const ws = await freeWorkspace();
    const amHeaders = JSON.parse(nativeFixture('alertmanager/firing.headers.json')) as Record<string, string>;
    const firing = await post(ws.source.ingest_url, JSON.parse(nativeFixture('alertmanager/firing.json')), { ...amHeaders, 'Idempotency-Key': 'am-1' });
    expect(firing.status).toBe(202);
    await k()('plan_usage')
      .where({ organization_id: ws.organizationId, period: usagePeriod(new Date()) })
      .update({ alerts: 50 });

    const replay = await post(ws.source.ingest_url, JSON.parse(nativeFixture('alertmanager/firing.json')), { ...amHeaders, 'Idempotency-Key': 'am-1' });
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ duplicate: true, event_id: firing.body.event_id });
    const resolved = await post(
      ws.source.ingest_url,
      JSON.parse(nativeFixture('alertmanager/resolved.json')),
      JSON.parse(nativeFixture('alertmanager/resolved.headers.json')),
    );
    expect(resolved.status).toBe(202);
    expect(await k()('alerts').where({ id: firing.body.event_id }).first()).toMatchObject({ status: 'RESOLVED' });
    expect((await usageOf(ws.organizationId)).alerts).toBe(50);
  });

  it('when a refused request is sent again with its Idempotency-Key after the quota allows, then it is stored (the 429 kept no record)', async () => {
    const ws = await freeWorkspace();
    await post(ws.source.ingest_url);
    await k()('plan_usage')
      .where({ organization_id: ws.organizationId, period: usagePeriod(new Date()) })
      .update({ alerts: 50 });
    expect((await post(ws.source.ingest_url, { title: 'later' }, { 'Idempotency-Key': 'later-1' })).status).toBe(429);
    await k()('plan_usage')
      .where({ organization_id: ws.organizationId, period: usagePeriod(new Date()) })
      .update({ alerts: 10 }); // as after an upgrade-and-back, or a new month
    const again = await post(ws.source.ingest_url, { title: 'later' }, { 'Idempotency-Key': 'later-1' });
    expect(again.status).toBe(202);
    expect(again.body.duplicate).toBe(false);
  });
});

describe('the Form B receiver over the quota', () => {
  it('when a FREE workspace at its quota posts to POST /webhook/{id}, then 429 plan_limit_reached in the API-key envelope with Retry-After, and nothing is stored', async () => {
    const ws = await freeWorkspace('PRO');
    const key = (await apiKeyFor(stack.orm, ws.organizationId, ws.admin)).key;
    const created = await request('POST', `${stack.urls.apiKey}/v1/webhooks`, { token: key, body: { name: 'quota hook', channels: ['email'], signed: false } });
    expect(created.status).toBe(201);
    const hook = created.body.data as { id: string; receiver_url: string };
    await setPlan(stack.orm, ws.organizationId, 'FREE');
    expect((await sendRaw('POST', hook.receiver_url, { body: JSON.stringify({ title: 'first', severity: 'warning' }) })).status).toBe(202);
    await k()('plan_usage')
      .where({ organization_id: ws.organizationId, period: usagePeriod(new Date()) })
      .update({ alerts: 50 });
    const before = await storedBy(ws.organizationId);

    const res = await sendRaw('POST', hook.receiver_url, { body: JSON.stringify({ title: 'over', severity: 'critical' }) });
    expect(res.status).toBe(429);
    expectEnvelopeError(res.body, 'plan_limit_reached');
    expect((res.body as { error: string }).error).toContain(`resets on ${RESET_DATE}`);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(await storedBy(ws.organizationId)).toEqual(before);
  });
});
