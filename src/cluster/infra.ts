import net from 'node:net';
import path from 'node:path';
import { postmasterPid, useEmbeddedPostgres } from '../embedded/postgres';
import { freePort, isListening } from '../net';
import { PROJECT_ROOT } from '../paths';
import { waitForFrontend } from '../temporal/dev-server';
import { prepareNamespace } from './namespace';
import { setUpTemporalSchemas } from './schema';
import { temporalDatabasesFor, type ServerPorts } from './server-config';
import { TemporalServerProcess } from './temporal-server';
import { ensureClusterTools } from './tools';

/** The dynamic config docker-compose.yml mounts into its Temporal server: one file for both. */
export const DYNAMIC_CONFIG_FILE = path.join(PROJECT_ROOT, 'deploy', 'temporal', 'dynamicconfig.yaml');
/** History shards of a new cluster (docker-compose.yml's NUM_HISTORY_SHARDS): fixed once its database exists. */
export const DEFAULT_HISTORY_SHARDS = 4;

export interface ClusterInfraOptions {
  /** Embedded Postgres (`pg/`), the server's config and log (`temporal-server/`). */
  dataDir: string;
  /** Postgres for Klaxon and Temporal alike; the embedded one under dataDir when unset. */
  databaseUrl?: string;
  shards?: number;
  /** The frontend's gRPC port (TEMPORAL_PORT); a free one when unset. */
  frontendPort?: number;
  namespace?: string;
  logLevel?: 'debug' | 'info' | 'warn' | 'error';
  say: (line: string) => void;
}

/** Postgres and a Temporal server persisting to it: what `klaxon api` and `klaxon worker` processes are pointed at. */
export interface ClusterInfra {
  /** Klaxon's own database (not migrated here). */
  databaseUrl: string;
  temporalAddress: string;
  namespace: string;
  temporal: {
    pid: number | undefined;
    logFile: string;
    /** Starts it again on the same ports and database, and waits until its frontend serves the namespace. */
    start(): Promise<void>;
    stop(): Promise<void>;
    kill9(): Promise<void>;
  };
  postgres: { pid: number | undefined; url: string; embedded: boolean };
  stop(): Promise<void>;
}

/**
 * The cluster shape's infrastructure (docs/cluster.md): builds the Temporal server and its schema
 * tool if they are missing, sets up Temporal's schemas beside Klaxon's database, starts the
 * server with several history shards and deploy/temporal/dynamicconfig.yaml, and registers the
 * namespace and Klaxon's search attributes.
 */
export async function startClusterInfra(opts: ClusterInfraOptions): Promise<ClusterInfra> {
  const { say } = opts;
  const namespace = opts.namespace ?? 'default';
  const tools = await ensureClusterTools(say);
  const pg = opts.databaseUrl ? { url: opts.databaseUrl, stop: undefined } : await useEmbeddedPostgres(opts.dataDir, say);
  const postgresPid = () => (opts.databaseUrl ? undefined : postmasterPid(path.join(opts.dataDir, 'pg')));
  try {
    const db = temporalDatabasesFor(pg.url);
    await setUpTemporalSchemas(tools.sqlTool, db, say);
    const ports = await serverPorts(opts.frontendPort);
    if (await isListening(ports.frontend)) throw new Error(`port ${ports.frontend} is taken: set TEMPORAL_PORT to a free one`);
    const server = new TemporalServerProcess(tools.server, path.join(opts.dataDir, 'temporal-server'), {
      db,
      ports,
      historyShards: opts.shards ?? DEFAULT_HISTORY_SHARDS,
      dynamicConfigFile: DYNAMIC_CONFIG_FILE,
      logLevel: opts.logLevel ?? 'warn',
    });
    say(
      `Starting the Temporal server on ${server.address} (${opts.shards ?? DEFAULT_HISTORY_SHARDS} history shards, databases ${db.main} and ${db.visibility}; log: ${server.logFile})`,
    );
    const first = server.start();
    await Promise.race([prepareNamespace(server.address, namespace, 180_000), first.exited]).catch(async (err) => {
      await server.kill9();
      throw err;
    });
    const temporal = {
      get pid() {
        return server.pid;
      },
      logFile: server.logFile,
      start: async () => {
        const { exited } = server.start();
        await Promise.race([waitForFrontend(server.address, namespace, 120_000), exited]);
      },
      stop: () => server.stop(),
      kill9: () => server.kill9(),
    };
    return {
      databaseUrl: pg.url,
      temporalAddress: server.address,
      namespace,
      temporal,
      postgres: {
        get pid() {
          return postgresPid();
        },
        url: pg.url,
        embedded: !opts.databaseUrl,
      },
      stop: async () => {
        await server.stop();
        server.close();
        await pg.stop?.();
      },
    };
  } catch (err) {
    await pg.stop?.();
    throw err;
  }
}

/**
 * The frontend on `frontend` (or a free port), every other listener on a free port of its own.
 * Membership ports go into a smallint column of Temporal's schema: they are taken below 32768
 * (which is also below Linux's ephemeral range, so no outgoing connection lands on one meanwhile).
 */
async function serverPorts(frontend?: number): Promise<ServerPorts> {
  const taken = new Set<number>(frontend ? [frontend] : []);
  const next = async (pick: () => Promise<number>) => {
    for (;;) {
      const port = await pick();
      if (!taken.has(port)) {
        taken.add(port);
        return port;
      }
    }
  };
  const any = () => next(freePort);
  const low = () => next(freeLowPort);
  return {
    frontend: frontend ?? (await any()),
    frontendHttp: await any(),
    frontendMembership: await low(),
    history: await any(),
    historyMembership: await low(),
    matching: await any(),
    matchingMembership: await low(),
    worker: await any(),
    workerMembership: await low(),
  };
}

/** A free loopback port in 20000–32767. */
async function freeLowPort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_768);
    if (!(await isListening(port)) && (await canBind(port))) return port;
  }
}

function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
