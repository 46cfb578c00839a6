import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../../src/net';
import { openOrm, type MikroORM } from '../../../src/db/orm';
import { knexOf } from '../../../src/db/knex';
import { waitFor } from '../../support/wait';

/**
 * The watchdog as a role runs it (src/stack/boot.ts): `klaxon start` on the test's Postgres and
 * Temporal with WATCHDOG_URL set posts its canary to its own ingest listener (bound to every
 * interface here: reached by loopback), pages through its own worker, and pings.
 */
const BIN = path.resolve(__dirname, '..', '..', '..', 'bin', 'klaxon.js');
let child: ChildProcess | undefined;
let output = '';
let dataDir: string;
let orm: MikroORM;
const pings: number[] = [];
const monitor = http.createServer((_req, res) => {
  pings.push(Date.now());
  res.end('OK');
});

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'klaxon-watchdog-'));
  chmodSync(dataDir, 0o755);
  await new Promise<void>((resolve) => monitor.listen(0, '127.0.0.1', resolve));
  orm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 2);
});
afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGINT');
    await exited;
  }
  await new Promise((resolve) => monitor.close(resolve));
  await orm.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('when `klaxon start` runs with WATCHDOG_URL, then its canary passes through its own listener and worker and the monitor is pinged', async () => {
  const [app, ingest, apiKey] = [await freePort(), await freePort(), await freePort()];
  child = spawn(process.execPath, [BIN, 'start'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      KLAXON_DATA_DIR: dataDir,
      DATABASE_URL: process.env.KLAXON_TEST_DATABASE_URL!,
      TEMPORAL_ADDRESS: process.env.KLAXON_TEST_TEMPORAL_ADDRESS!,
      TEMPORAL_TASK_QUEUE: `klaxon-watchdog-${randomUUID()}`,
      APP_PORT: String(app),
      INGEST_PORT: String(ingest),
      API_KEY_PORT: String(apiKey),
      HOST: '0.0.0.0',
      LOG_LEVEL: 'warn',
      KLAXON_SECRET: 'watchdog-test-secret-that-is-long-enough-0123',
      WATCHDOG_URL: `http://127.0.0.1:${(monitor.address() as AddressInfo).port}/ping/check`,
      WATCHDOG_INTERVAL_SECONDS: '2',
      WATCHDOG_MIN_INTERVAL_SECONDS: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (b) => (output += b.toString()));
  child.stderr!.on('data', (b) => (output += b.toString()));

  await waitFor(async () => pings.length >= 2 || undefined, 120_000, `two pings; output so far:\n${output}`);
  // Past a flush of the request metrics (every 10 s), so what the ingest listener counted is in Postgres.
  const second = pings[1];
  await waitFor(async () => pings.some((at) => at > second + 11_000) || undefined, 30_000, 'pings over 11 s more');
  const row = await knexOf(orm)('watchdog_canary').where({ id: 1 }).first('last_success_at', 'last_success_ms');
  expect(row.last_success_ms).toBeLessThan(30_000);
  // Its own alert is left out of the response times: nothing else was posted to the ingest listener.
  const ingestCounted = await knexOf(orm)('request_metrics').where({ surface: 'ingest' }).sum({ n: 'count' });
  expect(Number(ingestCounted[0].n ?? 0)).toBe(0);
  expect(output).not.toMatch(/watchdog canary failed/);
}, 180_000);
