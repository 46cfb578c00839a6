import { incidentStateQuery, incidentWorkflowId } from '../../../src/contracts/workflows';
import { knexOf } from '../../../src/db/knex';
import { createSource } from '../../../src/services/ingest/sources';
import { useStackWithWorkspace } from '../../support/fixture';
import { request } from '../../support/http';
import { waitFor } from '../../support/wait';

const f = useStackWithWorkspace();
let ingestUrl: string;

beforeAll(async () => {
  const src = await createSource(f.stack.orm, {
    organizationId: f.ws.organizationId,
    serviceId: f.ws.serviceId,
    name: 'tests',
    ingestBaseUrl: f.stack.urls.ingest,
  });
  ingestUrl = src.ingest_url;
});

const send = (body: unknown, headers: Record<string, string> = {}) => request('POST', ingestUrl, { body, headers });
const incident = (id: string) => knexOf(f.stack.orm)('incidents').where({ id }).first();
const alertsOf = (incidentId: string) => knexOf(f.stack.orm)('alerts').where({ incident_id: incidentId });
const workflowState = (id: string) => f.stack.temporal.workflow.getHandle(incidentWorkflowId(id)).query(incidentStateQuery);
const countAll = async () => ({
  alerts: Number((await knexOf(f.stack.orm)('alerts').where({ organization_id: f.ws.organizationId }).count({ n: '*' }))[0].n),
  incidents: Number((await knexOf(f.stack.orm)('incidents').where({ organization_id: f.ws.organizationId }).count({ n: '*' }))[0].n),
});

describe('POST {ingest_url}/{token}', () => {
  it('when a valid event arrives, then 202 with ids, and its incident opens with a running workflow', async () => {
    const res = await send({ title: 'CPU high', severity: 'Critical', source: 'nagios', metadata: { host: 'web-1' } });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: 'accepted', event_id: expect.any(String), incident_id: expect.any(String), duplicate: false });
    const inc = await incident(res.body.incident_id);
    expect(inc).toMatchObject({
      title: 'CPU high',
      severity: 'CRITICAL',
      status: 'TRIGGERED',
      service_id: f.ws.serviceId,
      owning_team_id: f.ws.teamId,
      alert_count: 1,
    });
    // seq 2: the escalation's decision (its team has nobody to page, docs/architecture.md, "Incidents").
    const state = await waitFor(
      async () => {
        const s = await workflowState(res.body.incident_id);
        return s.seq === 2 && s;
      },
      15_000,
      'the workflow and its paging decision',
    );
    expect(state).toEqual({ status: 'TRIGGERED', seq: 2 });
    const [alert] = await alertsOf(res.body.incident_id);
    expect(alert).toMatchObject({
      id: res.body.event_id,
      title: 'CPU high',
      severity: 'CRITICAL',
      sender: 'form-a',
      metadata: { host: 'web-1', source: 'nagios' },
    });
  });

  it.each([
    ['neither title nor message', { severity: 'low' }, 400, /at least one of title or message/],
    ['an unknown severity', { title: 't', severity: 'sev-9' }, 400, /severity must be one of/],
    ['metadata that is not an object', { title: 't', metadata: 'x' }, 400, /metadata must be an object/],
  ])('when the body has %s, then %s with a message and nothing is stored', async (_name, body, status, message) => {
    const before = await countAll();
    const res = await send(body);
    expect(res.status).toBe(status);
    expect(res.body.message).toMatch(message);
    expect(await countAll()).toEqual(before);
  });

  it('when the body is not JSON, too large, or malformed, or the token unknown, then 415, 413, 400, 404', async () => {
    const before = await countAll();
    expect((await request('POST', ingestUrl, { rawBody: 'title=x', headers: { 'Content-Type': 'text/plain' } })).status).toBe(415);
    const big = await request('POST', ingestUrl, {
      rawBody: JSON.stringify({ title: 'x', message: 'm'.repeat(600 * 1024) }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(big.status).toBe(413);
    expect(big.body.message).toMatch(/512 KiB/);
    expect((await request('POST', ingestUrl, { rawBody: '{"title":', headers: { 'Content-Type': 'application/json' } })).status).toBe(400);
    const unknown = await request('POST', `${f.stack.urls.ingest}/${'x'.repeat(32)}`, { body: { title: 't' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toMatch(/unknown or revoked/);
    expect(await countAll()).toEqual(before);
  });

  it('when a request is logged, then the secret in the URL is not', async () => {
    await send({ title: 'log check' });
    const secret = ingestUrl.split('/').pop()!;
    expect(f.stack.logs.lines.join('\n')).not.toContain(secret);
    expect(f.stack.logs.records.some((r) => r.route === '/{webhook_token}' && r.surface === 'ingest')).toBe(true);
  });
});

describe('Idempotency-Key', () => {
  it('when the same key and payload are replayed, then 200 duplicate with the first ids and the incident is untouched', async () => {
    const first = await send({ title: 'disk full', metadata: { a: 1, b: 2 } }, { 'Idempotency-Key': 'k-1' });
    expect(first.status).toBe(202);
    await waitFor(() => workflowState(first.body.incident_id));
    const before = await incident(first.body.incident_id);
    const replay = await request('POST', ingestUrl, {
      rawBody: '{ "metadata": {"b": 2, "a": 1}, "title": "disk full" }',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'k-1' },
    });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ status: 'accepted', event_id: first.body.event_id, incident_id: first.body.incident_id, duplicate: true });
    expect(await incident(first.body.incident_id)).toEqual(before);
    expect(await alertsOf(first.body.incident_id)).toHaveLength(1);
  });

  it('when the same key comes with another payload, then 409 idempotency_conflict and nothing changes', async () => {
    await send({ title: 'first' }, { 'Idempotency-Key': 'k-2' });
    const before = await countAll();
    const res = await send({ title: 'second' }, { 'Idempotency-Key': 'k-2' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: expect.stringMatching(/different payload/), code: 'idempotency_conflict' });
    expect(await countAll()).toEqual(before);
  });

  it('when 50 requests share one key at once, then one alert and one incident, and every answer names them', async () => {
    const before = await countAll();
    const answers = await Promise.all(Array.from({ length: 50 }, () => send({ title: 'stampede' }, { 'Idempotency-Key': 'k-concurrent' })));
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(49).fill(200), 202].sort());
    expect(new Set(answers.map((a) => a.body.event_id)).size).toBe(1);
    expect(new Set(answers.map((a) => a.body.incident_id)).size).toBe(1);
    expect(await countAll()).toEqual({ alerts: before.alerts + 1, incidents: before.incidents + 1 });
  });
});

describe('dedup_key routing', () => {
  it('when a second event has the same dedup_key while open, then it attaches with a timeline entry; after resolve a new incident opens', async () => {
    const first = await send({ title: 'api 5xx', dedup_key: 'api-5xx' });
    const second = await send({ title: 'api 5xx again', dedup_key: 'api-5xx' });
    expect(second.status).toBe(202);
    expect(second.body.incident_id).toBe(first.body.incident_id);
    expect((await incident(first.body.incident_id)).alert_count).toBe(2);
    const entry = await waitFor(
      async () => (await knexOf(f.stack.orm)('timeline_entries').where({ incident_id: first.body.incident_id, type: 'alert_attached' }).first()) ?? undefined,
    );
    expect(entry.message).toBe('Alert attached: api 5xx again');

    const resolved = await request('POST', f.url(`/incidents/${first.body.incident_id}/resolve`), { token: f.ws.tokens.readWrite });
    expect(resolved.body.data.status).toBe('RESOLVED');
    const third = await send({ title: 'api 5xx once more', dedup_key: 'api-5xx' });
    expect(third.body.incident_id).not.toBe(first.body.incident_id);
    const other = await send({ title: 'no key' });
    expect(other.body.incident_id).not.toBe(third.body.incident_id);
  });

  it('when 50 events with one new dedup_key arrive at once, then exactly one incident with alert_count 50', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => send({ title: `flap ${i}`, dedup_key: 'flapping-50' })));
    expect(answers.every((a) => a.status === 202)).toBe(true);
    const ids = new Set(answers.map((a) => a.body.incident_id));
    expect(ids.size).toBe(1);
    const [id] = [...ids];
    expect((await incident(id)).alert_count).toBe(50);
    expect(await alertsOf(id)).toHaveLength(50);
    // Every attached event lands once on the timeline, whatever the delivery order.
    await waitFor(
      async () => Number((await knexOf(f.stack.orm)('timeline_entries').where({ incident_id: id, type: 'alert_attached' }).count({ n: '*' }))[0].n) === 49,
      60_000,
      '49 attach entries',
    );
  });
});

describe('nothing accepted is lost', () => {
  it('when the worker is stopped, then events are still accepted, and once it is back every incident has its workflow and counts', async () => {
    await f.stack.worker.stop();
    const answers = await Promise.all([
      send({ title: 'while down 1', dedup_key: 'down-a' }),
      send({ title: 'while down 2', dedup_key: 'down-a' }),
      send({ title: 'while down 3' }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202]);
    await f.stack.worker.start();
    for (const id of new Set(answers.map((a) => a.body.incident_id))) {
      await waitFor(() => workflowState(id), 20_000, `workflow of ${id}`);
    }
    expect((await incident(answers[0].body.incident_id)).alert_count).toBe(2);
    await waitFor(
      async () =>
        Number(
          (
            await knexOf(f.stack.orm)('ingest_outbox')
              .whereNull('delivered_at')
              .whereIn(
                'incident_id',
                answers.map((a) => a.body.incident_id),
              )
              .count({ n: '*' })
          )[0].n,
        ) === 0,
      20_000,
      'outbox drained',
    );
  });
});
