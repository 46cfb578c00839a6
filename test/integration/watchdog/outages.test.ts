import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestStack, type TestStack } from '../../support/stack';
import { sleep, waitFor } from '../../support/wait';
import { postgresProxy, temporalProxy } from '../outages/support';

/**
 * Issue 41's promise (docs/reliability.md, "The watchdog"): the outside monitor stops hearing from
 * Klaxon within two intervals when Postgres or Temporal is down, and hears again once it is back.
 * The stack's Postgres (API, relay, worker, watchdog: one pool) and Temporal (the API's client and
 * the worker) connections both go through cuttable proxies; the worker's stop is watchdog.test.ts's.
 */
const INTERVAL_S = 3;
const INTERVAL_MS = INTERVAL_S * 1000;
/** A ping a tick began before the cut may land a little after the two intervals. */
const SLACK_MS = 500;
const pings: number[] = [];
const monitor = http.createServer((_req, res) => {
  pings.push(Date.now());
  res.end('OK');
});
let stack: TestStack;
let pg: Awaited<ReturnType<typeof postgresProxy>>['proxy'];
let temporal: Awaited<ReturnType<typeof temporalProxy>>['proxy'];

beforeAll(async () => {
  await new Promise<void>((resolve) => monitor.listen(0, '127.0.0.1', resolve));
  const viaPg = await postgresProxy();
  const viaTemporal = await temporalProxy();
  pg = viaPg.proxy;
  temporal = viaTemporal.proxy;
  stack = await startTestStack({
    databaseUrl: viaPg.url,
    temporalAddress: viaTemporal.address,
    env: {
      WATCHDOG_URL: `http://127.0.0.1:${(monitor.address() as AddressInfo).port}/ping/check`,
      WATCHDOG_INTERVAL_SECONDS: String(INTERVAL_S),
      WATCHDOG_MIN_INTERVAL_SECONDS: '1',
    },
  });
});
afterAll(async () => {
  pg?.restore();
  temporal?.restore();
  await stack?.stop();
  await pg?.close();
  await temporal?.close();
  await new Promise((resolve) => monitor.close(resolve));
});

/** Cuts a dependency while the canary passes; checks the pings stop within two intervals and resume once it is back. */
async function outage(proxy: { cut(): void; restore(): void }) {
  const before = pings.length;
  await waitFor(async () => pings.length >= before + 2 || undefined, 10 * INTERVAL_MS, 'pings while the canary passes');
  proxy.cut();
  const cutAt = Date.now();
  // Long enough for several failing runs.
  await sleep(5 * INTERVAL_MS);
  expect(pings.filter((at) => at > cutAt + 2 * INTERVAL_MS + SLACK_MS)).toEqual([]);
  const failed = stack.watchdog!.runs.filter((r) => r.at > cutAt && r.outcome.result === 'failed');
  expect(failed.length).toBeGreaterThanOrEqual(2);

  proxy.restore();
  const restoredAt = Date.now();
  // The pool and the Temporal connections reconnect on their own; a run passes again and pings.
  await waitFor(async () => pings.filter((at) => at > restoredAt).length >= 2 || undefined, 60_000, 'pings after the outage');
  expect(stack.watchdog!.runs.some((r) => r.at > restoredAt && r.outcome.result === 'passed' && r.pinged)).toBe(true);
}

describe('the watchdog under outages (docs/reliability.md)', () => {
  it('when Postgres is cut off, then pings stop within two intervals, and they resume once it is back', async () => {
    await outage(pg);
  }, 120_000);

  it('when Temporal is cut off, then pings stop within two intervals, and they resume once it is back', async () => {
    await outage(temporal);
  }, 120_000);
});
