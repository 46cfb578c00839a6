import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeTestCert, type TestCert } from '../../../src/integrations/testing/tls-cert';
import { startWebPushFake, type WebPushFake } from '../../../src/integrations/web-push/testing/wire-fake';
import { dashboard, signUpAndLogIn } from '../../support/dashboard';
import { MiB, RssSampler } from '../../support/rss-sampler';
import { startTestStack, type TestStack } from '../../support/stack';
import { waitFor } from '../../support/wait';

/**
 * Not a test (no `.test.ts`): the API process's peak RSS while a FREE sign-up's test push meets a
 * push service that answers 500 and floods a body that never ends (issue 36; docs/security.md,
 * "Outbound requests"). Run:
 *
 *   npx jest --testMatch '**\/endless-push.measure.ts'
 *
 * (`node --expose-gc node_modules/.bin/jest …` collects garbage before the baseline.) The fake
 * stops streaming by itself after ENDLESS_MEASURE_SECONDS (20) or ENDLESS_MEASURE_MIB (384) MiB
 * sent, whichever comes first: unbounded code reads until then (a real peer would not stop), so
 * its figure is a floor. Prints the RSS before, its peak while the test push ran, the growth, how
 * long the answer took, what the fake sent and who closed the connection.
 */
const SECONDS = Number(process.env.ENDLESS_MEASURE_SECONDS ?? 20);
const LIMIT_MIB = Number(process.env.ENDLESS_MEASURE_MIB ?? 384);
let cert: TestCert;
let fake: WebPushFake;
let stack: TestStack;
let dataDir: string;

beforeAll(async () => {
  cert = makeTestCert();
  fake = await startWebPushFake({ cert });
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'klaxon-endless-measure-'));
  stack = await startTestStack({ worker: false, env: { KLAXON_DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: 'true', WEB_PUSH_CA_FILE: cert.certFile } });
});
afterAll(async () => {
  await stack?.stop();
  await fake?.close();
  cert?.remove();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

it('measures the API process’s peak RSS during a test push to an endless 500', async () => {
  const owner = await signUpAndLogIn(stack.urls.app, stack.orm);
  const add = async (sub: ReturnType<WebPushFake['subscribe']>) =>
    (await dashboard(stack.urls.app, 'POST', '/contact-methods', { session: owner, body: { type: 'push_web', address: sub.toJSON(), label: 'measure' } })).body
      .data.id as string;
  // A warm-up push to a healthy subscription: keys, TLS and the route loaded before the baseline.
  const warm = await dashboard(stack.urls.app, 'POST', `/contact-methods/${await add(fake.subscribe())}/test`, { session: owner });
  expect(warm.body.data.delivered).toBe(true);

  const sub = fake.subscribe();
  fake.answerEndlessly(sub.id, 500, 'flood', { ms: SECONDS * 1000, bytes: LIMIT_MIB * MiB });
  const id = await add(sub);
  const memory = RssSampler.start();
  const started = performance.now();
  // Unbounded code may never answer once the fake gives up on it: waited for a while, then reported.
  const giveUpMs = SECONDS * 1000 + 20_000;
  const res = await Promise.race([
    dashboard(stack.urls.app, 'POST', `/contact-methods/${id}/test`, { session: owner }),
    new Promise<{ status: string; body: { data: string } }>((resolve) =>
      setTimeout(() => resolve({ status: 'none', body: { data: `no answer within ${giveUpMs / 1000} s` } }), giveUpMs).unref(),
    ),
  ]);
  const took = performance.now() - started;
  const rss = memory.stop();
  const answer = await waitFor(async () => fake.endlessAnswers.find((a) => a.subscriptionId === sub.id && a.closedAt !== null), 60_000, 'the answer closed');
  const mib = (n: number) => `${(n / MiB).toFixed(1)} MiB`;
  process.stdout.write(
    [
      `Test push to an endless 500 (flood; the fake stops at ${SECONDS} s or ${LIMIT_MIB} MiB):`,
      `  answer: ${res.status} ${JSON.stringify(res.body.data)} after ${(took / 1000).toFixed(2)} s`,
      `  RSS before ${mib(rss.baseline)}, peak ${mib(rss.peak)}, growth ${mib(rss.growth)}`,
      `  the fake sent ${mib(answer.bytes)} over ${((answer.closedAt! - answer.openedAt) / 1000).toFixed(2)} s; closed by ${answer.closedBy}`,
      '',
    ].join('\n'),
  );
}, 180_000);
