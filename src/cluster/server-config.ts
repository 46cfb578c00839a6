/**
 * The Temporal server's configuration for the cluster shape (docs/cluster.md), as a pure
 * function: the same settings as upstream's config/development-postgres12.yaml, on ports and a
 * database of our choosing. Written as JSON, which is YAML, so no YAML library is needed.
 */

/** Where Temporal's two databases live: the Postgres server Klaxon's own database is on. */
export interface TemporalDatabases {
  host: string;
  port: number;
  user: string;
  password: string;
  /** Histories, shards, task queues. */
  main: string;
  /** Workflow listings (the Temporal UI's and `temporal workflow list`'s). */
  visibility: string;
}

/**
 * Temporal's databases beside Klaxon's: named after it (`klaxon` → `klaxon_temporal`,
 * `klaxon_temporal_visibility`), so two Klaxon databases on one server never share a Temporal.
 * The server reaches Postgres over TCP: a Unix-socket host (the embedded server's) becomes
 * 127.0.0.1, where the embedded server listens too.
 */
export function temporalDatabasesFor(databaseUrl: string): TemporalDatabases {
  const url = new URL(databaseUrl);
  const host = decodeURIComponent(url.hostname);
  const klaxonDb = decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres';
  return {
    host: !host || host.startsWith('/') ? '127.0.0.1' : host,
    port: Number(url.port || 5432),
    user: decodeURIComponent(url.username) || 'postgres',
    password: decodeURIComponent(url.password),
    main: `${klaxonDb}_temporal`,
    visibility: `${klaxonDb}_temporal_visibility`,
  };
}

/** The ports one server process takes: gRPC and membership (ringpop) for each of its four services. */
export interface ServerPorts {
  frontend: number;
  frontendHttp: number;
  frontendMembership: number;
  history: number;
  historyMembership: number;
  matching: number;
  matchingMembership: number;
  worker: number;
  workerMembership: number;
}

export interface ServerConfigInput {
  db: TemporalDatabases;
  ports: ServerPorts;
  /** Fixed when the cluster's database is first set up: the server refuses to start with another. */
  historyShards: number;
  /** Absolute path of the dynamic config (deploy/temporal/dynamicconfig.yaml: the one docker-compose.yml mounts). */
  dynamicConfigFile: string;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
}

const sqlStore = (db: TemporalDatabases, databaseName: string, conns: number) => ({
  sql: {
    pluginName: 'postgres12',
    databaseName,
    connectAddr: `${db.host}:${db.port}`,
    connectProtocol: 'tcp',
    user: db.user,
    password: db.password,
    maxConns: conns,
    maxIdleConns: conns,
    maxConnLifetime: '1h',
  },
});

const service = (grpcPort: number, membershipPort: number, extra: Record<string, number> = {}) => ({
  rpc: { grpcPort, membershipPort, bindOnLocalHost: true, ...extra },
});

/** The whole server configuration (all four services in one process, loopback only). */
export function temporalServerConfig(input: ServerConfigInput): Record<string, unknown> {
  const { db, ports } = input;
  return {
    log: { stdout: true, level: input.logLevel },
    persistence: {
      defaultStore: 'postgres-default',
      visibilityStore: 'postgres-visibility',
      numHistoryShards: input.historyShards,
      datastores: {
        'postgres-default': sqlStore(db, db.main, 20),
        'postgres-visibility': sqlStore(db, db.visibility, 4),
      },
    },
    global: { membership: { maxJoinDuration: '30s', broadcastAddress: '127.0.0.1' } },
    services: {
      frontend: service(ports.frontend, ports.frontendMembership, { httpPort: ports.frontendHttp }),
      history: service(ports.history, ports.historyMembership),
      matching: service(ports.matching, ports.matchingMembership),
      worker: service(ports.worker, ports.workerMembership),
    },
    clusterMetadata: {
      enableGlobalNamespace: false,
      failoverVersionIncrement: 10,
      masterClusterName: 'active',
      currentClusterName: 'active',
      clusterInformation: {
        active: { enabled: true, initialFailoverVersion: 1, rpcName: 'frontend', rpcAddress: `127.0.0.1:${ports.frontend}` },
      },
    },
    dcRedirectionPolicy: { policy: 'noop' },
    dynamicConfigClient: { filepath: input.dynamicConfigFile, pollInterval: '10s' },
  };
}
