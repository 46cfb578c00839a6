import { randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { usagePeriod } from '../../../src/domain/plans';
import { createSource, type SourceWithUrl } from '../../../src/services/ingest/sources';
import { setPlan } from '../../../src/services/workspace/workspaces';
import { request } from '../../support/http';
import { startTestStack, type TestStack } from '../../support/stack';
import { waitFor } from '../../support/wait';
import { seedWorkspace, type SeededWorkspace } from '../../support/workspace';

// Opsgenie's Alert API v2 on the real ingest listener (docs/compat-intake.md), through the group commit, the relay and the workflows.
let stack: TestStack;
let ws: SeededWorkspace;
beforeAll(async () => {
  stack = await startTestStack({ env: { INGEST_RATE_LIMIT_PER_SOURCE: '5' } });
  ws = await seedWorkspace(stack.orm);
});
afterAll(() => stack.stop());

const k = () => knexOf(stack.orm);
const newSource = (workspace = ws) =>
  createSource(stack.orm, {
    organizationId: workspace.organizationId,
    serviceId: workspace.serviceId,
    name: `og ${randomUUID().slice(0, 6)}`,
    ingestBaseUrl: stack.urls.ingest,
  });
/** The UUID form Opsgenie shows its API keys in. */
const uuidForm = (key: string) => `${key.slice(0, 8)}-${key.slice(8, 12)}-${key.slice(12, 16)}-${key.slice(16, 20)}-${key.slice(20)}`;
const genie = (src: SourceWithUrl, headers: Record<string, string> = {}) => ({ Authorization: `GenieKey ${src.routing_key}`, ...headers });
/** A call to `{api_url}v2/alerts…`, api_url being the source's ingestion URL + '/' (or the listener's root). */
const call = (method: string, path: string, src: SourceWithUrl, opts: { body?: unknown; headers?: Record<string, string>; root?: boolean } = {}) =>
  request(method, `${opts.root ? stack.urls.ingest : src.ingest_url}/v2/alerts${path}`, { body: opts.body, headers: opts.headers ?? genie(src) });
const create = (src: SourceWithUrl, body: Record<string, unknown>, opts: { headers?: Record<string, string>; root?: boolean } = {}) =>
  call('POST', '', src, { body, ...opts });
const accepted = { result: 'Request will be processed', took: expect.any(Number), requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) };
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

describe('POST /v2/alerts: create', () => {
  it('when an alert is created with every field, then 202 as Opsgenie answers (requestId = the alert id) and every field lands on it', async () => {
    const src = await newSource();
    const res = await create(src, {
      message: 'Disk full on db-1',
      alias: 'disk-db-1',
      description: 'Only 1% left',
      priority: 'P1',
      tags: ['db', 'prod'],
      details: { host: 'db-1' },
      entity: 'db-1',
      source: 'Alertmanager',
      user: 'prometheus',
      note: 'first firing',
      actions: ['Restart'],
      responders: [{ type: 'team', name: 'ops' }],
      visibleTo: [{ type: 'team', name: 'ops' }],
    });
    expect({ status: res.status, body: res.body }).toEqual({ status: 202, body: accepted });
    const alert = await k()('alerts').where({ id: res.body.requestId }).first();
    expect(alert).toMatchObject({
      source_id: src.id,
      title: 'Disk full on db-1',
      description: 'Only 1% left',
      severity: 'CRITICAL',
      dedup_key: 'disk-db-1',
      sender: 'opsgenie-alert-api',
      metadata: {
        alias: 'disk-db-1',
        priority: 'P1',
        tags: ['db', 'prod'],
        details: { host: 'db-1' },
        entity: 'db-1',
        source: 'Alertmanager',
        user: 'prometheus',
        note: 'first firing',
        actions: ['Restart'],
      },
    });
    expect(await k()('incidents').where({ id: alert.incident_id }).first()).toMatchObject({
      title: 'Disk full on db-1',
      severity: 'CRITICAL',
      description: 'Only 1% left',
    });
  });

  it('when the key is in Opsgenie’s UUID form and the call goes to the listener’s root, then it names the same source', async () => {
    const src = await newSource();
    const res = await create(
      src,
      { message: 'root call', alias: 'root-1' },
      { root: true, headers: { Authorization: `GenieKey ${uuidForm(src.routing_key)}` } },
    );
    expect(res.status).toBe(202);
    expect((await k()('alerts').where({ id: res.body.requestId }).first()).source_id).toBe(src.id);
  });

  it('when the request status of a create is asked, then it says the alert was created; an unknown request is 404', async () => {
    const src = await newSource();
    const res = await create(src, { message: 'status please', alias: 'status-1' });
    const status = await call('GET', `/requests/${res.body.requestId}`, src);
    expect({ status: status.status, body: status.body }).toEqual({
      status: 200,
      body: {
        data: {
          success: true,
          action: 'Create',
          processedAt: expect.any(String),
          integrationId: src.id,
          isSuccess: true,
          status: 'Created alert',
          alertId: res.body.requestId,
          alias: 'status-1',
        },
        took: expect.any(Number),
        requestId: res.body.requestId,
      },
    });
    const unknown = await call('GET', `/requests/${randomUUID()}`, src);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: expect.stringMatching(/does not exist/), took: expect.any(Number), requestId: expect.any(String) });
  });
});

describe('close and acknowledge move the incident', () => {
  it('when an alert created with an alias is acknowledged and closed by alias, then its incident acknowledges (as the sender, saying who) and resolves', async () => {
    const src = await newSource();
    const created = await create(src, { message: 'CPU high', alias: 'cpu-web-1' });
    const alert = await k()('alerts').where({ id: created.body.requestId }).first();
    const ack = await call('POST', '/cpu-web-1/acknowledge?identifierType=alias', src, { body: { user: 'alice', note: 'on it' } });
    expect({ status: ack.status, body: ack.body }).toEqual({ status: 202, body: accepted });
    await statusOf(alert.incident_id, 'ACKNOWLEDGED');
    const entry = await k()('timeline_entries').where({ incident_id: alert.incident_id, type: 'status_change', to_status: 'ACKNOWLEDGED' }).first();
    expect(entry).toMatchObject({ via: 'ingest', message: 'Acknowledged via Opsgenie Alert API by alice (TRIGGERED → ACKNOWLEDGED)' });

    const close = await call('POST', '/cpu-web-1/close?identifierType=alias', src, { body: { source: '' } });
    expect(close.status).toBe(202);
    await statusOf(alert.incident_id, 'RESOLVED');
    expect((await k()('alerts').where({ id: alert.id }).first()).status).toBe('RESOLVED');
  });

  it('when an alert created without an alias is closed by its id (identifierType absent: id), then it resolves', async () => {
    const src = await newSource();
    const created = await create(src, { message: 'no alias' });
    const alert = await k()('alerts').where({ id: created.body.requestId }).first();
    expect(alert.dedup_key).toBeNull();
    expect((await call('POST', `/${alert.id}/acknowledge`, src)).status).toBe(202);
    await statusOf(alert.incident_id, 'ACKNOWLEDGED');
    expect((await call('POST', `/${alert.id}/close?identifierType=id`, src)).status).toBe(202);
    await statusOf(alert.incident_id, 'RESOLVED');
  });

  it('when a close or acknowledge names no alert (an unknown alias or id, or an id that is not ours), then 202 and nothing changes', async () => {
    const src = await newSource();
    const before = await stored();
    for (const path of ['/nope/close?identifierType=alias', `/${randomUUID()}/acknowledge`, '/12345/close'])
      expect((await call('POST', path, src)).status).toBe(202);
    expect(await stored()).toEqual(before);
  });

  it('when 50 creates of one alias arrive at once, then exactly one incident takes the 50 alerts', async () => {
    const src = await newSource();
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => create(src, { message: `storm ${i}`, alias: 'og-storm' })));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(202));
    const incidents = await k()('incidents').where({ service_id: ws.serviceId, dedup_key: 'og-storm' });
    expect(incidents).toHaveLength(1);
    expect(incidents[0].alert_count).toBe(50);
  });

  it('when a create is replayed with its Idempotency-Key, then the same requestId and nothing new; another body with the key is 409', async () => {
    const src = await newSource();
    const headers = genie(src, { 'Idempotency-Key': 'og-1' });
    const first = await create(src, { message: 'once', alias: 'idem' }, { headers });
    const before = await stored();
    const replay = await create(src, { message: 'once', alias: 'idem' }, { headers });
    expect(replay.status).toBe(202);
    expect(replay.body.requestId).toBe(first.body.requestId);
    expect(await stored()).toEqual(before);
    // The same key on a close of the same body is another request: 409.
    const conflict = await call('POST', '/idem/close?identifierType=alias', src, { headers });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual({ message: expect.stringMatching(/Idempotency-Key/), took: expect.any(Number), requestId: expect.any(String) });
    expect(await stored()).toEqual(before);
  });
});

describe('refusals, in Opsgenie’s shape, change nothing', () => {
  it('when the message is missing, or a field has the wrong type, then 422 naming it', async () => {
    const src = await newSource();
    const before = await stored();
    const missing = await create(src, { alias: 'x' });
    expect({ status: missing.status, body: missing.body }).toEqual({
      status: 422,
      body: { message: 'Message can not be empty.', errors: { message: 'Message can not be empty.' }, took: expect.any(Number), requestId: expect.any(String) },
    });
    const wrong = await create(src, { message: 'm', priority: 'P0' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ priority: 'Priority must be one of P1, P2, P3, P4, P5.' });
    const tiny = await call('POST', '/1905/close?identifierType=tiny', src);
    expect(tiny.status).toBe(422);
    expect(tiny.body.message).toMatch(/tiny is not supported.*id .*alias/);
    expect(await stored()).toEqual(before);
  });

  it('when the GenieKey is missing, unknown, another scheme, or another workspace’s under an ingestion URL, then 401 "Could not authenticate"', async () => {
    const src = await newSource();
    const foreign = await newSource(await seedWorkspace(stack.orm));
    const before = await stored();
    const denied = [
      await create(src, { message: 'm' }, { headers: {} }),
      await create(src, { message: 'm' }, { headers: { Authorization: `GenieKey ${'e'.repeat(32)}` } }),
      await create(src, { message: 'm' }, { headers: { Authorization: `Bearer ${src.routing_key}` } }),
      await create(src, { message: 'm' }, { headers: genie(foreign) }),
      await request('POST', `${stack.urls.ingest}/${'Z'.repeat(32)}/v2/alerts`, { body: { message: 'm' }, headers: genie(src) }),
      await call('GET', `/requests/${randomUUID()}`, src, { headers: {} }),
    ];
    for (const res of denied) {
      expect({ status: res.status, body: res.body }).toEqual({
        status: 401,
        body: { message: 'Could not authenticate', took: expect.any(Number), requestId: expect.any(String) },
      });
    }
    expect(await stored()).toEqual(before);
  });

  it('when the source is paused, then 423 and nothing is stored', async () => {
    const src = await newSource();
    await k()('alert_sources').update({ status: 'PAUSED' }).where({ id: src.id });
    const before = await stored();
    const res = await create(src, { message: 'while paused' });
    expect(res.status).toBe(423);
    expect(res.body).toEqual({ message: expect.stringMatching(/paused/), took: expect.any(Number), requestId: expect.any(String) });
    expect(await stored()).toEqual(before);
  });

  it('when a source sends past its rate limit, or a FREE workspace is at its quota, then 429 with Retry-After', async () => {
    const src = await newSource();
    let throttled;
    for (let i = 0; i < 52 && !throttled; i++) {
      const res = await call('POST', `/a${i}/close?identifierType=alias`, src);
      if (res.status === 429) throttled = res;
    }
    expect(throttled!.body).toEqual({ message: expect.stringMatching(/rate limit/), took: expect.any(Number), requestId: expect.any(String) });
    expect(Number(throttled!.headers.get('Retry-After'))).toBeGreaterThan(0);

    const free = await seedWorkspace(stack.orm);
    await setPlan(stack.orm, free.organizationId, 'FREE');
    const freeSrc = await newSource(free);
    expect((await create(freeSrc, { message: 'first' })).status).toBe(202);
    await k()('plan_usage')
      .where({ organization_id: free.organizationId, period: usagePeriod(new Date()) })
      .update({ alerts: 50 });
    const before = await stored(free.organizationId);
    const over = await create(freeSrc, { message: 'second' });
    expect(over.status).toBe(429);
    expect(over.body.message).toMatch(/FREE plan stores 50 alerts a month/);
    expect(await stored(free.organizationId)).toEqual(before);
  });

  it('when calls come in, then the logs never hold the URL secret or the key', async () => {
    const src = await newSource();
    await create(src, { message: 'logged?', alias: 'log-1' });
    const logged = stack.logs.lines.join('\n');
    expect(logged).toContain('/{webhook_token}/v2/alerts');
    expect(logged).not.toContain(src.ingest_url.slice(stack.urls.ingest.length + 1));
    expect(logged).not.toContain(src.routing_key);
  });
});
