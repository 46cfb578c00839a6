/**
 * Hostile payloads through the real stack (issue 21): 512 KiB adversarial bodies posted to an
 * ingestion URL and to a webhook's Form B receiver are answered at once (202 or 400; 413 over
 * 512 KiB) while /healthz, served by the same process, keeps answering. Before the fix one
 * Datadog body held the event loop for minutes, and every tenant with it.
 */
import path from 'node:path';
import { knexOf } from '../../../src/db/knex';
import { INGEST_LIMITS } from '../../../src/domain/ingest/limits';
import { createSource } from '../../../src/services/ingest/sources';
import { startSnsEndpoint } from '../../fakes/sns-endpoint';
import { HealthPinger } from '../../support/healthz-pinger';
import { hostileCase, HOSTILE_TARGETS, JSON_SHAPES, TEXT_SHAPES, type HostileCase } from '../../support/hostile/corpus';
import { request } from '../../support/http';
import { apiKeyFor } from '../../support/api-key';
import { startTestStack, type TestStack } from '../../support/stack';
import { seedWorkspace } from '../../support/workspace';

/**
 * A 512 KiB hostile body is answered in about 20 ms here (the slowest in ~160 ms), and /healthz
 * waits at most for one body's parsing (~100 ms): these bounds are several times that, and far
 * below the seconds to minutes one Datadog body took before the fix.
 */
const POST_BOUND_MS = 1000;
const HEALTH_BOUND_MS = 1000;
/** A request still unanswered after this is a failure, not a hang of the whole file. */
const GIVE_UP_MS = 10_000;

let stack: TestStack;
let sns: Awaited<ReturnType<typeof startSnsEndpoint>>;
let health: HealthPinger;
const surfaces = { ingest: { url: '', sourceId: '' }, receiver: { url: '', sourceId: '' } };

beforeAll(async () => {
  // SNS bodies fetch their signing certificate: from this stand-in, never from AWS.
  sns = await startSnsEndpoint(path.resolve(__dirname, '../../fixtures/native'));
  stack = await startTestStack({ worker: false, env: { SNS_BASE_URL_OVERRIDE: sns.url } });
  await stack.relay.stop(); // accepted events stay in the outbox: delivery is not what is measured
  const ws = await seedWorkspace(stack.orm);
  const source = await createSource(stack.orm, {
    organizationId: ws.organizationId,
    serviceId: ws.serviceId,
    name: 'hostile',
    ingestBaseUrl: stack.urls.ingest,
  });
  surfaces.ingest = { url: source.ingest_url, sourceId: source.id };
  const { key } = await apiKeyFor(stack.orm, ws.organizationId, ws.admin);
  const hook = await request('POST', `${stack.urls.apiKey}/v1/webhooks`, { token: key, body: { name: 'hostile', channels: ['email'], signed: false } });
  surfaces.receiver = { url: hook.body.data.receiver_url, sourceId: hook.body.data.id };
  // The app listener's /healthz: another surface of the same process, the other tenants' stand-in.
  health = HealthPinger.start(`${stack.urls.app}/healthz`);
});
afterAll(async () => {
  await health?.stop();
  await stack?.stop();
  await sns?.close();
});

type Surface = keyof typeof surfaces;
const alertCount = async (surface: Surface) =>
  Number((await knexOf(stack.orm)('alerts').where({ source_id: surfaces[surface].sourceId }).count({ n: '*' }))[0].n);

/** Posts one case; what came back and how long it took, or why it did not. */
async function post(surface: Surface, c: Pick<HostileCase, 'raw' | 'target'>): Promise<{ status: number; ms: number; message: string }> {
  const started = performance.now();
  try {
    const res = await fetch(surfaces[surface].url, { method: 'POST', body: c.raw, headers: c.target.headers, signal: AbortSignal.timeout(GIVE_UP_MS) });
    const body = (await res.json().catch(() => ({}))) as { message?: string; error?: string };
    return { status: res.status, ms: performance.now() - started, message: body.message ?? body.error ?? '' };
  } catch (err) {
    return { status: 0, ms: performance.now() - started, message: (err as Error).message };
  }
}

const OTHER_SHAPES = [...TEXT_SHAPES.slice(1), ...JSON_SHAPES];

/** Each field gets the blank run and one more shape, turning through the corpus's others. */
const casesOf = (targetIndex: number) =>
  HOSTILE_TARGETS[targetIndex].fields.flatMap((field, i) =>
    [TEXT_SHAPES[0], OTHER_SHAPES[(targetIndex * 7 + i) % OTHER_SHAPES.length]].map((shape) => ({ field, shape })),
  );

/** Form A is the ingestion URL's plain form and Form B the receiver's; native payloads go to both. */
const surfacesOf = (name: string): Surface[] => (name === 'form-a' ? ['ingest'] : name === 'form-b' ? ['receiver'] : ['ingest', 'receiver']);

describe('hostile payloads through the stack', () => {
  it.each(HOSTILE_TARGETS.map((t, i) => [t.name, i] as const))(
    'when 512 KiB %s bodies with hostile fields are posted, then each is answered 202 or 400 in well under a second, a 400 stores nothing, and /healthz keeps answering',
    async (_name, targetIndex) => {
      const target = HOSTILE_TARGETS[targetIndex];
      const failures: string[] = [];
      await health.take(); // count the pings from here
      for (const { field, shape } of casesOf(targetIndex)) {
        const c = hostileCase(target, field, shape);
        for (const surface of surfacesOf(target.name)) {
          const before = await alertCount(surface);
          const answer = await post(surface, c);
          const where = `${surface} ${c.name}`;
          if (answer.status !== 202 && answer.status !== 400) failures.push(`${where}: ${answer.status} ${answer.message}`);
          if (answer.status === 400 && !answer.message) failures.push(`${where}: 400 without a message`);
          if (answer.status === 400 && (await alertCount(surface)) !== before) failures.push(`${where}: 400, yet alerts were stored`);
          if (answer.ms > POST_BOUND_MS) failures.push(`${where}: answered in ${answer.ms.toFixed(0)} ms`);
        }
      }
      const pings = await health.take();
      expect(failures).toEqual([]);
      expect(pings.failures).toEqual([]);
      expect(pings.latencies.length).toBeGreaterThan(0);
      expect(Math.max(...pings.latencies)).toBeLessThan(HEALTH_BOUND_MS);
    },
    120_000,
  );

  it('when one Alertmanager body carries as many alerts as fit in 512 KiB, then all are stored, answered 202 with every event, and /healthz keeps answering', async () => {
    const ws = await seedWorkspace(stack.orm);
    const source = await createSource(stack.orm, {
      organizationId: ws.organizationId,
      serviceId: ws.serviceId,
      name: 'storm',
      ingestBaseUrl: stack.urls.ingest,
    });
    const envelope = {
      version: '4',
      groupKey: '{}:{alertname=~".*"}',
      status: 'firing',
      receiver: 'klaxon',
      groupLabels: {},
      commonLabels: {},
      commonAnnotations: {},
      externalURL: 'http://am',
      truncatedAlerts: 0,
    };
    const alert = (i: number) => ({ status: 'firing', labels: { alertname: `a${i}` }, annotations: {}, fingerprint: `f${i}` });
    const one = JSON.stringify(alert(99_999)).length + 1;
    const count = Math.floor((INGEST_LIMITS.bodyBytes - JSON.stringify({ ...envelope, alerts: [] }).length) / one);
    const raw = JSON.stringify({ ...envelope, alerts: Array.from({ length: count }, (_, i) => alert(i)) });
    expect(raw.length).toBeLessThanOrEqual(INGEST_LIMITS.bodyBytes);
    expect(count).toBeGreaterThan(5000);

    await health.take();
    const res = await fetch(source.ingest_url, {
      method: 'POST',
      body: raw,
      headers: { 'content-type': 'application/json' },
      signal: AbortSignal.timeout(GIVE_UP_MS),
    });
    const answer = (await res.json()) as { events: unknown[] };
    const pings = await health.take();
    expect(res.status).toBe(202);
    expect(answer.events).toHaveLength(count);
    expect(Number((await knexOf(stack.orm)('alerts').where({ source_id: source.id }).count({ n: '*' }))[0].n)).toBe(count);
    expect(pings.failures).toEqual([]);
    expect(Math.max(...pings.latencies)).toBeLessThan(HEALTH_BOUND_MS);
  }, 60_000);

  it('when a body is one byte over 512 KiB, then 413 on both surfaces, answered at once', async () => {
    const target = HOSTILE_TARGETS.find((t) => t.name === 'datadog')!;
    const c = hostileCase(target, 'body', TEXT_SHAPES[0], INGEST_LIMITS.bodyBytes + 1);
    expect(c.bytes).toBe(INGEST_LIMITS.bodyBytes + 1);
    for (const surface of ['ingest', 'receiver'] as const) {
      const answer = await post(surface, c);
      expect({ surface, status: answer.status, message: answer.message }).toEqual({ surface, status: 413, message: 'request body is larger than 512 KiB' });
      expect(answer.ms).toBeLessThan(POST_BOUND_MS);
    }
  });
});
