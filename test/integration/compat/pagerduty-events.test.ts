import { randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { usagePeriod } from '../../../src/domain/plans';
import { createSource, type SourceWithUrl } from '../../../src/services/ingest/sources';
import { setPlan } from '../../../src/services/workspace/workspaces';
import { request } from '../../support/http';
import { startTestStack, type TestStack } from '../../support/stack';
import { waitFor } from '../../support/wait';
import { seedWorkspace, type SeededWorkspace } from '../../support/workspace';

// PagerDuty's Events API v2 on the real ingest listener (docs/compat-intake.md), through the group commit, the relay and the workflows.
let stack: TestStack;
let ws: SeededWorkspace;
beforeAll(async () => {
  // 5 events a second (a 50-event burst) per source: the storm below fits, the rate test passes it.
  stack = await startTestStack({ env: { INGEST_RATE_LIMIT_PER_SOURCE: '5' } });
  ws = await seedWorkspace(stack.orm);
});
afterAll(() => stack.stop());

const k = () => knexOf(stack.orm);
const newSource = (workspace = ws) =>
  createSource(stack.orm, {
    organizationId: workspace.organizationId,
    serviceId: workspace.serviceId,
    name: `pd ${randomUUID().slice(0, 6)}`,
    ingestBaseUrl: stack.urls.ingest,
  });
/** POST {ingest_url}/v2/enqueue, or the listener's root /v2/enqueue. */
const enqueue = (body: unknown, opts: { at?: SourceWithUrl; headers?: Record<string, string> } = {}) =>
  request('POST', `${opts.at ? opts.at.ingest_url : stack.urls.ingest}/v2/enqueue`, { body, headers: opts.headers });
const trigger = (src: SourceWithUrl, over: Record<string, unknown> = {}, payload: Record<string, unknown> = {}) => ({
  routing_key: src.routing_key,
  event_action: 'trigger',
  payload: { summary: 'CPU high on web-1', source: 'web-1', severity: 'critical', ...payload },
  ...over,
});
const incidentOfKey = (serviceId: string, dedupKey: string) =>
  k()('incidents').where({ service_id: serviceId, dedup_key: dedupKey }).orderBy('created_at', 'desc').first();
const stored = async (organizationId = ws.organizationId) => {
  const count = async (q: any) => Number((await q.count({ n: '*' }))[0].n);
  return {
    alerts: await count(k()('alerts').where({ organization_id: organizationId })),
    incidents: await count(k()('incidents').where({ organization_id: organizationId })),
    outbox: await count(k()('ingest_outbox as o').join('incidents as i', 'i.id', 'o.incident_id').where('i.organization_id', organizationId)),
  };
};
const statusOf = async (incidentId: string, status: string) =>
  waitFor(async () => (await k()('incidents').where({ id: incidentId }).first()).status === status, 20_000, `incident ${status}`);

describe('POST /v2/enqueue: trigger', () => {
  it('when a trigger has every field, then 202 as PagerDuty answers, and every field lands on the alert and its incident', async () => {
    const src = await newSource();
    const body = trigger(
      src,
      {
        dedup_key: 'disk/db-1',
        client: 'Prometheus',
        client_url: 'https://prom.example.com',
        links: [{ href: 'https://runbook.example.com', text: 'Runbook' }],
        images: [{ src: 'https://img.example.com/g.png', href: 'https://grafana.example.com', alt: 'graph' }],
      },
      {
        summary: 'Disk full on db-1',
        severity: 'error',
        timestamp: '2026-11-27T08:42:58.315+0000',
        component: 'postgres',
        group: 'prod',
        class: 'disk',
        custom_details: { free: '1%' },
      },
    );
    const res = await enqueue(body, { at: src });
    expect({ status: res.status, body: res.body }).toEqual({ status: 202, body: { status: 'success', message: 'Event processed', dedup_key: 'disk/db-1' } });
    const alert = await k()('alerts').where({ source_id: src.id }).first();
    expect(alert).toMatchObject({
      title: 'Disk full on db-1',
      severity: 'HIGH',
      dedup_key: 'disk/db-1',
      sender: 'pagerduty-events-v2',
      status: 'ACTIVE',
      metadata: {
        source: 'web-1',
        component: 'postgres',
        group: 'prod',
        class: 'disk',
        timestamp: '2026-11-27T08:42:58.315+0000',
        custom_details: { free: '1%' },
        client: 'Prometheus',
        client_url: 'https://prom.example.com',
        links: [{ href: 'https://runbook.example.com', text: 'Runbook' }],
        images: [{ src: 'https://img.example.com/g.png', href: 'https://grafana.example.com', alt: 'graph' }],
      },
    });
    const incident = await k()('incidents').where({ id: alert.incident_id }).first();
    expect(incident).toMatchObject({ title: 'Disk full on db-1', severity: 'HIGH', dedup_key: 'disk/db-1', service_id: ws.serviceId, alert_count: 1 });
    // Its workflow runs: the relay delivered the opening.
    await waitFor(async () => (await k()('ingest_outbox').where({ incident_id: incident.id }).first()).delivered_at !== null, 15_000, 'the delivery');
  });

  it('when sent to the listener’s root, then the routing key alone names the source', async () => {
    const src = await newSource();
    const res = await enqueue(trigger(src, { dedup_key: 'root-1' }));
    expect(res.status).toBe(202);
    expect((await k()('alerts').where({ source_id: src.id, dedup_key: 'root-1' })).length).toBe(1);
  });

  it('when a trigger has no dedup_key, then Klaxon makes one (32 hex), answers it, and it is the alert’s; each such trigger is a new incident', async () => {
    const src = await newSource();
    const first = await enqueue(trigger(src), { at: src });
    const second = await enqueue(trigger(src), { at: src });
    expect(first.body.dedup_key).toMatch(/^[0-9a-f]{32}$/);
    expect(second.body.dedup_key).not.toBe(first.body.dedup_key);
    const alerts = await k()('alerts').where({ source_id: src.id }).orderBy('created_at');
    expect(alerts.map((a) => a.dedup_key).sort()).toEqual([first.body.dedup_key, second.body.dedup_key].sort());
    expect(new Set(alerts.map((a) => a.incident_id)).size).toBe(2);
  });
});

describe('POST /v2/enqueue: idempotency and storms', () => {
  it('when a request is replayed with its Idempotency-Key, then the same answer (its made-up dedup key too) and nothing new; another body with the key is 409', async () => {
    const src = await newSource();
    const headers = { 'Idempotency-Key': 'pd-replay-1' };
    const first = await enqueue(trigger(src), { at: src, headers });
    const before = await stored();
    const replay = await enqueue(trigger(src), { at: src, headers });
    expect({ status: replay.status, body: replay.body }).toEqual({ status: 202, body: first.body });
    expect(await stored()).toEqual(before);
    const conflict = await enqueue(trigger(src, {}, { summary: 'something else' }), { at: src, headers });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual({ status: 'idempotency conflict', message: expect.stringMatching(/Idempotency-Key/), errors: [expect.any(String)] });
    expect(await stored()).toEqual(before);
  });

  it('when 50 triggers of one dedup key arrive at once, then exactly one incident takes all 50 alerts', async () => {
    const src = await newSource();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => enqueue(trigger(src, { dedup_key: 'storm' }, { summary: `storm ${i}` }), { at: src })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(202));
    const incidents = await k()('incidents').where({ service_id: ws.serviceId, dedup_key: 'storm' });
    expect(incidents).toHaveLength(1);
    expect(incidents[0].alert_count).toBe(50);
    expect((await k()('alerts').where({ source_id: src.id })).length).toBe(50);
  });
});

describe('POST /v2/enqueue: acknowledge and resolve move the incident', () => {
  it('when a trigger is acknowledged, then its incident acknowledges as the sender (the timeline says how); resolved, it resolves', async () => {
    const src = await newSource();
    await enqueue(trigger(src, { dedup_key: 'lifecycle' }), { at: src });
    const incident = await incidentOfKey(ws.serviceId, 'lifecycle');
    const ack = await enqueue({ routing_key: src.routing_key, event_action: 'acknowledge', dedup_key: 'lifecycle' }, { at: src });
    expect({ status: ack.status, body: ack.body }).toEqual({ status: 202, body: { status: 'success', message: 'Event processed', dedup_key: 'lifecycle' } });
    await statusOf(incident.id, 'ACKNOWLEDGED');
    const entry = await k()('timeline_entries').where({ incident_id: incident.id, type: 'status_change', to_status: 'ACKNOWLEDGED' }).first();
    expect(entry).toMatchObject({ actor_type: 'system', via: 'ingest', message: 'Acknowledged via PagerDuty Events API (TRIGGERED → ACKNOWLEDGED)' });

    const resolve = await enqueue({ routing_key: src.routing_key, event_action: 'resolve', dedup_key: 'lifecycle' });
    expect(resolve.status).toBe(202);
    await statusOf(incident.id, 'RESOLVED');
    expect(await k()('alerts').where({ incident_id: incident.id }).first()).toMatchObject({ status: 'RESOLVED' });
  });

  it('when an acknowledge or resolve names a key with no open incident, then 202 and nothing changes', async () => {
    const src = await newSource();
    const before = await stored();
    for (const action of ['acknowledge', 'resolve']) {
      const res = await enqueue({ routing_key: src.routing_key, event_action: action, dedup_key: 'nothing-open' }, { at: src });
      expect({ status: res.status, body: res.body }).toEqual({
        status: 202,
        body: { status: 'success', message: 'Event processed', dedup_key: 'nothing-open' },
      });
    }
    expect(await stored()).toEqual(before);
  });
});

describe('POST /v2/enqueue: refusals, in PagerDuty’s shape, change nothing', () => {
  it('when the event is invalid, then 400 names every field; a body that is not JSON is 400 too', async () => {
    const src = await newSource();
    const before = await stored();
    const res = await enqueue({ routing_key: src.routing_key, event_action: 'trigger', payload: { source: 'x', severity: 'loud' } }, { at: src });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: {
        status: 'invalid event',
        message: 'Event object is invalid',
        errors: [
          "'payload.summary' is missing or blank",
          "'payload.severity' is invalid (must be one of the following: 'critical', 'warning', 'error' or 'info')",
        ],
      },
    });
    const notJson = await request('POST', `${src.ingest_url}/v2/enqueue`, { rawBody: '{"routing_key":', headers: { 'Content-Type': 'application/json' } });
    expect(notJson.status).toBe(400);
    expect(notJson.body).toMatchObject({ status: 'invalid event', message: 'Event object is invalid', errors: [expect.any(String)] });
    const form = await request('POST', `${stack.urls.ingest}/v2/enqueue`, {
      rawBody: 'routing_key=x',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    expect(form.body.status).toBe('invalid event');
    const big = await request('POST', `${stack.urls.ingest}/v2/enqueue`, {
      rawBody: JSON.stringify({ ...trigger(src), pad: 'x'.repeat(600 * 1024) }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(big.status).toBe(413);
    expect(await stored()).toEqual(before);
  });

  it('when the routing key names no source, or another workspace’s under an ingestion URL, or the URL is unknown, then 400 "Invalid routing key"', async () => {
    const src = await newSource();
    const other = await seedWorkspace(stack.orm);
    const foreign = await newSource(other);
    const before = await stored();
    const invalidKey = { status: 'invalid event', message: 'Event object is invalid', errors: ['Invalid routing key'] };
    const answers = [
      await enqueue(trigger(src, { routing_key: 'f'.repeat(32) })),
      await enqueue(trigger(foreign), { at: src }),
      await request('POST', `${stack.urls.ingest}/${'Z'.repeat(32)}/v2/enqueue`, { body: trigger(src) }),
    ];
    for (const res of answers) expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: invalidKey });
    expect(await stored()).toEqual(before);
    expect(await stored(other.organizationId)).toEqual({ alerts: 0, incidents: 0, outbox: 0 });
  });

  it('when the source is paused, then 423 in PagerDuty’s shape and nothing is stored', async () => {
    const src = await newSource();
    await k()('alert_sources').update({ status: 'PAUSED' }).where({ id: src.id });
    const before = await stored();
    const res = await enqueue(trigger(src), { at: src });
    expect(res.status).toBe(423);
    expect(res.body).toEqual({ status: 'source paused', message: expect.stringMatching(/paused/), errors: [expect.stringMatching(/paused/)] });
    expect(await stored()).toEqual(before);
  });

  it('when a source sends past its rate limit, then 429 with Retry-After in PagerDuty’s throttle shape', async () => {
    const src = await newSource();
    const answers = [];
    for (let i = 0; i < 52; i++) answers.push(await enqueue({ routing_key: src.routing_key, event_action: 'resolve', dedup_key: `r${i}` }));
    const throttled = answers.find((a) => a.status === 429)!;
    expect(throttled.body).toEqual({
      status: 'throttle exceeded',
      message: 'Requests for this service are arriving too quickly.  Please retry later.',
      errors: [expect.stringMatching(/rate limit/)],
    });
    expect(Number(throttled.headers.get('Retry-After'))).toBeGreaterThan(0);
  });

  it('when a FREE workspace has stored its month’s alerts, then a trigger is 429 naming the quota, and nothing is stored', async () => {
    const free = await seedWorkspace(stack.orm);
    await setPlan(stack.orm, free.organizationId, 'FREE');
    const src = await newSource(free);
    expect((await enqueue(trigger(src, { dedup_key: 'first' }))).status).toBe(202);
    await k()('plan_usage')
      .where({ organization_id: free.organizationId, period: usagePeriod(new Date()) })
      .update({ alerts: 50 });
    const before = await stored(free.organizationId);
    const res = await enqueue(trigger(src, { dedup_key: 'second' }));
    expect(res.status).toBe(429);
    expect(res.body).toEqual({
      status: 'throttle exceeded',
      message: expect.stringMatching(/FREE plan stores 50 alerts a month/),
      errors: [expect.any(String)],
    });
    expect(Number(res.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(await stored(free.organizationId)).toEqual(before);
  });
});

describe('what the ingest listener keeps of a PagerDuty call', () => {
  it('when events come in, then the logs name the route, never the URL secret or the routing key, and the source counts the calls', async () => {
    const src = await newSource();
    await enqueue(trigger(src), { at: src });
    await enqueue(trigger(src, {}, { summary: '' }), { at: src });
    const secret = src.ingest_url.slice(stack.urls.ingest.length + 1);
    const logged = stack.logs.lines.join('\n');
    expect(logged).toContain('/{webhook_token}/v2/enqueue');
    expect(logged).not.toContain(secret);
    expect(logged).not.toContain(src.routing_key);
    const stats = await waitFor(
      async () => {
        const row = await k()('alert_sources').where({ id: src.id }).first();
        return Number(row.total_calls) >= 2 && row;
      },
      5000,
      'the counted calls',
    );
    expect({ ok: Number(stats.successful_calls), failed: Number(stats.failed_calls) }).toEqual({ ok: 1, failed: 1 });
  });
});
