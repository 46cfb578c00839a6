import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { knexOf } from '../../../src/db/knex';
import { PROVIDER_CALL_TIMEOUT_MS } from '../../../src/domain/paging/attempt-timeouts';
import { makeTestCert, type TestCert } from '../../../src/integrations/testing/tls-cert';
import { startWebPushFake, type FakeSubscription, type WebPushFake } from '../../../src/integrations/web-push/testing/wire-fake';
import { dashboard, memberSession, signUpAndLogIn, type DashboardSession } from '../../support/dashboard';
import { HealthPinger } from '../../support/healthz-pinger';
import { pagingService, trigger } from '../../support/paging';
import { MiB, RssSampler } from '../../support/rss-sampler';
import { startTestStack, type TestStack } from '../../support/stack';
import { sleep, waitFor } from '../../support/wait';
import { seedWorkspace, type SeededWorkspace } from '../../support/workspace';

/*
 * Issue 36 (security review 2, HIGH): a push service that answers 500 and a body that never ends
 * used to be read without limit by web-push's own sender, in the API process (a test push) and
 * in the worker (pages and drills), until the process ran out of heap. Through the bounded client
 * it costs at most the answer cap in memory and the provider call's deadline in time, and the
 * connection is closed by Klaxon (aborted, not abandoned). The push service is the wire fake over
 * HTTPS, trusted by WEB_PUSH_CA_FILE, reached on loopback with ALLOW_PRIVATE_TARGETS.
 */
let cert: TestCert;
let fake: WebPushFake;
let stack: TestStack;
let dataDir: string;

beforeAll(async () => {
  cert = makeTestCert();
  fake = await startWebPushFake({ cert });
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'klaxon-endless-push-'));
  stack = await startTestStack({ env: { KLAXON_DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: 'true', WEB_PUSH_CA_FILE: cert.certFile } });
});
afterAll(async () => {
  await stack?.stop();
  await fake?.close();
  cert?.remove();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

type Session = Pick<DashboardSession, 'cookie' | 'csrf'>;
const api = (method: string, p: string, session: Session, body?: unknown) => dashboard(stack.urls.app, method, p, { session, body });
const db = () => knexOf(stack.orm);

/** A push_web contact method for this subscription, added through the API; its id. */
async function addBrowser(session: Session, sub: FakeSubscription): Promise<string> {
  const added = await api('POST', '/contact-methods', session, { type: 'push_web', address: sub.toJSON(), label: 'Endless browser' });
  expect(added.status).toBe(201);
  return added.body.data.id;
}

/** The endless answer the fake gave this subscription, once the connection closed. */
const closedAnswer = (sub: FakeSubscription, timeoutMs = 45_000) =>
  waitFor(async () => fake.endlessAnswers.find((a) => a.subscriptionId === sub.id && a.closedAt !== null), timeoutMs, 'the endless answer closed');

describe('a push service whose answer never ends', () => {
  let owner: DashboardSession & { organizationId: string; userId: string };
  let pinger: HealthPinger;

  beforeAll(async () => {
    owner = await signUpAndLogIn(stack.urls.app, stack.orm);
    // The app listener's /healthz, pinged from another process: it is every tenant's API too.
    pinger = HealthPinger.start(`${stack.urls.app}/healthz`);
    await waitFor(async () => (await pinger.take()).latencies.length > 0, 20_000, 'the health pinger running');
  });
  afterAll(() => pinger?.stop());

  it('when a FREE sign-up’s test push meets a 500 flooding an endless body, then the API answers with the status, its memory grows by far less than the body sent, /healthz answers under 1 s throughout, and Klaxon closes the connection', async () => {
    expect((await db()('organizations').where({ id: owner.organizationId }).first()).plan).toBe('FREE');
    const sub = fake.subscribe();
    fake.answerEndlessly(sub.id, 500, 'flood');
    const id = await addBrowser(owner, sub);

    await pinger.take();
    const memory = RssSampler.start();
    const res = await api('POST', `/contact-methods/${id}/test`, owner);
    await sleep(500); // the pings go on after the answer
    const rss = memory.stop();
    const pings = await pinger.take();

    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ delivered: false, status_code: 500, error: `push to 127.0.0.1:${fake.port} not accepted: HTTP 500`, provider: 'web-push' });
    const answer = await closedAnswer(sub);
    expect(answer.closedBy).toBe('client');
    // The cap, not the deadline, ended it: far sooner, and only the cap's worth (plus what was in flight) was sent.
    expect(answer.closedAt! - answer.openedAt).toBeLessThan(PROVIDER_CALL_TIMEOUT_MS);
    expect(answer.bytes).toBeLessThan(16 * MiB);
    // Generous: the stack's own work moves RSS by a few MiB; unbounded, the body alone was hundreds.
    expect(rss.growth).toBeLessThan(64 * MiB);
    expect(pings.failures).toEqual([]);
    expect(pings.latencies.length).toBeGreaterThan(0);
    expect(Math.max(...pings.latencies)).toBeLessThan(1000);
    // The contact method stays: a 5xx is the service's trouble, not the browser's.
    expect((await db()('contact_methods').where({ id }).first()).disabled_at).toBeNull();
  }, 90_000);

  it('when the endless body trickles in under the cap, then the test push ends at the deadline with the status, Klaxon closes the connection then, and /healthz answers under 1 s throughout', async () => {
    const sub = fake.subscribe();
    fake.answerEndlessly(sub.id, 500, 'drip');
    const id = await addBrowser(owner, sub);

    await pinger.take();
    const started = Date.now();
    const res = await api('POST', `/contact-methods/${id}/test`, owner);
    const took = Date.now() - started;
    const pings = await pinger.take();

    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ delivered: false, status_code: 500, error: `push to 127.0.0.1:${fake.port} not accepted: HTTP 500`, provider: 'web-push' });
    const answer = await closedAnswer(sub);
    expect(answer.closedBy).toBe('client');
    expect(answer.closedAt! - answer.openedAt).toBeGreaterThan(PROVIDER_CALL_TIMEOUT_MS - 1000);
    expect(answer.closedAt! - answer.openedAt).toBeLessThan(PROVIDER_CALL_TIMEOUT_MS + 3000);
    expect(took).toBeLessThan(PROVIDER_CALL_TIMEOUT_MS + 3000);
    expect(pings.failures).toEqual([]);
    expect(Math.max(...pings.latencies)).toBeLessThan(1000);
  }, 90_000);
});

describe('pages and drills to an endless push service, in the worker', () => {
  let ws: SeededWorkspace;
  beforeAll(async () => {
    ws = await seedWorkspace(stack.orm);
  });

  /** A member paged at once on this browser only. */
  async function pushResponder(sub: FakeSubscription) {
    const me = await memberSession(stack.urls.app, stack.orm, ws.organizationId, 'MEMBER');
    const contactId = await addBrowser(me, sub);
    const rule = await api('POST', '/notification-rules', me, { contact_method_id: contactId, delay_seconds: 0 });
    expect(rule.status).toBe(201);
    return { ...me, contactId };
  }
  const pageOn = async (userId: string) =>
    trigger(await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: userId }] }] }, stack.urls.ingest));

  it('when a page’s push service trickles an endless 500, then the attempt ends at the deadline with the status, Klaxon closes the connection then (aborted, not abandoned), and the worker goes on paging', async () => {
    const sub = fake.subscribe();
    fake.answerEndlessly(sub.id, 500, 'drip');
    const me = await pushResponder(sub);
    const incidentId = await pageOn(me.userId);

    const answer = await closedAnswer(sub);
    expect(answer.closedBy).toBe('client');
    expect(answer.closedAt! - answer.openedAt).toBeGreaterThan(PROVIDER_CALL_TIMEOUT_MS - 1000);
    expect(answer.closedAt! - answer.openedAt).toBeLessThan(PROVIDER_CALL_TIMEOUT_MS + 3000);
    const page = await waitFor(
      async () =>
        (await db()('notifications').where({ incident_id: incidentId, channel: 'push_web' }).whereNotNull('error').first()) as {
          status: string;
          error: string;
          unknown_outcome_retries: number;
        },
      20_000,
      'the failed attempt recorded',
    );
    // The service answered and did not take it: retried (queued again, or already claimed by the
    // next attempt on a busy machine), never marked as possibly sent twice.
    expect(page.error).toBe(`web-push: push to 127.0.0.1:${fake.port} not accepted: HTTP 500`);
    expect(['queued', 'sending']).toContain(page.status);
    expect(page.unknown_outcome_retries).toBe(0);

    const healthy = fake.subscribe();
    const other = await pushResponder(healthy);
    await pageOn(other.userId);
    await fake.waitFor((r) => r.subscriptionId === healthy.id && r.status === 201);
    expect(stack.worker.running).toBe(true);
  }, 90_000);

  it('when a drill’s push service floods an endless 500, then each attempt ends at the cap, the result fails after its retries with the status, and the worker stays up', async () => {
    const sub = fake.subscribe();
    fake.answerEndlessly(sub.id, 500, 'flood');
    const me = await pushResponder(sub);
    const admin = await memberSession(stack.urls.app, stack.orm, ws.organizationId, 'ACCOUNT_ADMIN');

    const memory = RssSampler.start();
    const started = await api('POST', '/drills', admin, { target: { type: 'user', id: me.userId }, channels: ['push_web'] });
    expect(started.status).toBe(201);
    const result = await waitFor(
      async () => {
        const res = await api('GET', `/drills/${started.body.data.id}`, admin);
        const found = res.body.data.results.find((r: { channel: string }) => r.channel === 'push_web');
        return found?.status !== 'pending' && found;
      },
      60_000,
      'the drill result settled',
    );
    const rss = memory.stop();

    expect(result).toMatchObject({ status: 'failed', error: expect.stringMatching(/^gave up after retries: .*not accepted: HTTP 500$/) });
    const answers = fake.endlessAnswers.filter((a) => a.subscriptionId === sub.id);
    expect(answers.length).toBeGreaterThan(1);
    for (const a of answers) {
      expect(a.closedBy).toBe('client');
      expect(a.closedAt! - a.openedAt).toBeLessThan(PROVIDER_CALL_TIMEOUT_MS);
    }
    expect(rss.growth).toBeLessThan(64 * MiB);
    expect(stack.worker.running).toBe(true);
  }, 120_000);
});
