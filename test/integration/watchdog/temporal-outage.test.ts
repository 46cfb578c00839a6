import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestStack, type TestStack } from '../../support/stack';
import { sleep, waitFor } from '../../support/wait';
import { temporalProxy } from '../outages/support';

/**
 * Temporal cut off (the API's client and the worker both reach it through a proxy): the canary's
 * alert is accepted and waits in the outbox, no page goes out, so the outside monitor stops hearing
 * from Klaxon within two intervals; once Temporal is back, it hears again (docs/reliability.md).
 */
const INTERVAL_S = 3;
const INTERVAL_MS = INTERVAL_S * 1000;
const pings: number[] = [];
const monitor = http.createServer((_req, res) => {
  pings.push(Date.now());
  res.end('OK');
});
let stack: TestStack;
let proxy: Awaited<ReturnType<typeof temporalProxy>>['proxy'];

beforeAll(async () => {
  await new Promise<void>((resolve) => monitor.listen(0, '127.0.0.1', resolve));
  const proxied = await temporalProxy();
  proxy = proxied.proxy;
  stack = await startTestStack({
    temporalAddress: proxied.address,
    env: {
      WATCHDOG_URL: `http://127.0.0.1:${(monitor.address() as AddressInfo).port}/ping/check`,
      WATCHDOG_INTERVAL_SECONDS: String(INTERVAL_S),
      WATCHDOG_MIN_INTERVAL_SECONDS: '1',
    },
  });
});
afterAll(async () => {
  proxy.restore();
  await stack.stop();
  await proxy.close();
  await new Promise((resolve) => monitor.close(resolve));
});

it('when Temporal is cut off, then pings stop within two intervals, and they resume once it is back', async () => {
  await waitFor(async () => pings.length >= 2 || undefined, 10 * INTERVAL_MS, 'pings while the canary passes');
  proxy.cut();
  const cutAt = Date.now();
  await sleep(5 * INTERVAL_MS);
  expect(pings.filter((at) => at > cutAt + 2 * INTERVAL_MS + 500)).toEqual([]);
  expect(stack.watchdog!.runs.filter((r) => r.at > cutAt && r.outcome.result === 'failed').length).toBeGreaterThanOrEqual(2);

  proxy.restore();
  const restoredAt = Date.now();
  // The worker and the client reconnect on their own; the runs' outbox messages are delivered then.
  await waitFor(async () => pings.some((at) => at > restoredAt) || undefined, 60_000, 'a ping after Temporal is back');
}, 120_000);
