import fc from 'fast-check';
import { parseFormA } from '../../../src/domain/ingest/form-a';
import { knexOf } from '../../../src/db/knex';
import { createSource } from '../../../src/services/ingest/sources';
import { request } from '../../support/http';
import { startTestStack, type TestStack } from '../../support/stack';
import { seedWorkspace, type SeededWorkspace } from '../../support/workspace';

let stack: TestStack;
let ws: SeededWorkspace;
beforeAll(async () => {
  // One event per second per source, a 10 s burst: the 11th quick event is refused.
  stack = await startTestStack({ env: { INGEST_RATE_LIMIT_PER_SOURCE: '1' } });
  ws = await seedWorkspace(stack.orm);
});
afterAll(() => stack.stop());

const newSource = (name: string) =>
  createSource(stack.orm, { organizationId: ws.organizationId, serviceId: ws.serviceId, name, ingestBaseUrl: stack.urls.ingest });

describe('per-source rate limit', () => {
  it('when a source sends past its limit, then 429 with Retry-After, and other sources are unaffected', async () => {
    const noisy = await newSource('noisy');
    const quiet = await newSource('quiet');
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await request('POST', noisy.ingest_url, { body: { title: `n${i}` } })).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(202));
    const limited = await request('POST', noisy.ingest_url, { body: { title: 'one more' } });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: expect.stringMatching(/rate limit exceeded/), code: 'rate_limited' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await request('POST', quiet.ingest_url, { body: { title: 'quiet' } })).status).toBe(202);
    const stored = await knexOf(stack.orm)('alerts').where({ source_id: noisy.id });
    expect(stored).toHaveLength(10);
  });
});

describe('per-source rate limit on batch payloads', () => {
  const batch = (n: number) => ({
    version: '4',
    groupKey: '{}:{}',
    status: 'firing',
    receiver: 'klaxon',
    groupLabels: {},
    commonLabels: {},
    commonAnnotations: {},
    externalURL: 'http://am',
    alerts: Array.from({ length: n }, (_, i) => ({ status: 'firing', labels: { alertname: `batch-${i}` }, fingerprint: `b${i}` })),
  });

  it('when one Alertmanager body holds more alerts than the burst, then it is stored whole, and the source’s next request waits (the limit counts events)', async () => {
    const source = await newSource('batch');
    const first = await request('POST', source.ingest_url, { body: batch(25) });
    expect(first.status).toBe(202);
    expect(first.body.events).toHaveLength(25);
    const next = await request('POST', source.ingest_url, { body: { title: 'right after' } });
    expect(next.status).toBe(429);
    expect(Number(next.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await knexOf(stack.orm)('alerts').where({ source_id: source.id })).toHaveLength(25);
  });
});

describe('random bodies', () => {
  it('when any JSON value is posted, then never a 5xx, and an incident only for a valid event', async () => {
    let sourceUrl = (await newSource('fuzz-0')).ingest_url;
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 3 }), async (body) => {
        if (++sent % 9 === 0) sourceUrl = (await newSource(`fuzz-${sent}`)).ingest_url; // stay under the test limit
        const before = Number((await knexOf(stack.orm)('incidents').where({ organization_id: ws.organizationId }).count({ n: '*' }))[0].n);
        const res = await request('POST', sourceUrl, { rawBody: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
        expect(res.status).toBeLessThan(500);
        const after = Number((await knexOf(stack.orm)('incidents').where({ organization_id: ws.organizationId }).count({ n: '*' }))[0].n);
        const valid = parseFormA(body).ok && body !== null && typeof body === 'object' && !Array.isArray(body);
        expect(res.status).toBe(valid ? 202 : 400);
        expect(after - before).toBe(valid ? 1 : 0);
      }),
      { numRuns: 80 },
    );
  });
});
