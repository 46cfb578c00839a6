import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_HISTORY_SHARDS, DYNAMIC_CONFIG_FILE, TEMPORAL_SERVER_VERSION } from '../../../src/cluster';
import { temporalDatabasesFor, temporalServerConfig, type ServerPorts } from '../../../src/cluster/server-config';
import { PROJECT_ROOT } from '../../../src/paths';

const ports: ServerPorts = {
  frontend: 7233,
  frontendHttp: 7243,
  frontendMembership: 26933,
  history: 7234,
  historyMembership: 26934,
  matching: 7235,
  matchingMembership: 26935,
  worker: 7239,
  workerMembership: 26939,
};

describe('Temporal databases beside Klaxon’s', () => {
  it('are named after Klaxon’s database, on the same server and credentials', () => {
    expect(temporalDatabasesFor('postgres://app:s%40cret@db.internal:6543/klaxon_prod')).toEqual({
      host: 'db.internal',
      port: 6543,
      user: 'app',
      password: 's@cret',
      main: 'klaxon_prod_temporal',
      visibility: 'klaxon_prod_temporal_visibility',
    });
  });

  it('reach the embedded server over TCP when Klaxon uses its Unix socket', () => {
    const db = temporalDatabasesFor('postgres://postgres:postgres@%2Fwork%2F.klaxon%2Fpg:41234/klaxon');
    expect(db).toMatchObject({ host: '127.0.0.1', port: 41234, main: 'klaxon_temporal' });
  });

  it('default the port and user as libpq does', () => {
    expect(temporalDatabasesFor('postgres://127.0.0.1/postgres')).toMatchObject({ port: 5432, user: 'postgres', password: '', main: 'postgres_temporal' });
  });
});

describe('the server configuration', () => {
  const db = temporalDatabasesFor('postgres://postgres:pw@127.0.0.1:5432/klaxon');
  const config = temporalServerConfig({ db, ports, historyShards: 4, dynamicConfigFile: '/x/dynamicconfig.yaml', logLevel: 'warn' }) as {
    persistence: { numHistoryShards: number; datastores: Record<string, { sql: Record<string, unknown> }>; defaultStore: string; visibilityStore: string };
    services: Record<string, { rpc: Record<string, unknown> }>;
    clusterMetadata: { clusterInformation: { active: { rpcAddress: string } } };
    dynamicConfigClient: { filepath: string };
  };

  it('persists histories and visibility to the two PostgreSQL databases with the postgres12 plugin', () => {
    const { datastores, defaultStore, visibilityStore, numHistoryShards } = config.persistence;
    expect(numHistoryShards).toBe(4);
    expect(datastores[defaultStore].sql).toMatchObject({
      pluginName: 'postgres12',
      databaseName: 'klaxon_temporal',
      connectAddr: '127.0.0.1:5432',
      user: 'postgres',
      password: 'pw',
    });
    expect(datastores[visibilityStore].sql).toMatchObject({ pluginName: 'postgres12', databaseName: 'klaxon_temporal_visibility' });
  });

  it('runs all four services on loopback, each on its own ports, and names the frontend as the cluster address', () => {
    expect(Object.keys(config.services).sort()).toEqual(['frontend', 'history', 'matching', 'worker']);
    for (const svc of Object.values(config.services)) expect(svc.rpc.bindOnLocalHost).toBe(true);
    expect(config.services.frontend.rpc).toMatchObject({ grpcPort: 7233, httpPort: 7243, membershipPort: 26933 });
    expect(config.clusterMetadata.clusterInformation.active.rpcAddress).toBe('127.0.0.1:7233');
    // Membership ports are stored in a smallint column: the server refuses anything above 32767.
    for (const svc of Object.values(config.services)) expect(svc.rpc.membershipPort).toBeLessThanOrEqual(32767);
  });

  it('reads the dynamic config docker-compose.yml mounts', () => {
    expect(config.dynamicConfigClient.filepath).toBe('/x/dynamicconfig.yaml');
    expect(DYNAMIC_CONFIG_FILE).toBe(path.join(PROJECT_ROOT, 'deploy', 'temporal', 'dynamicconfig.yaml'));
    const compose = readFileSync(path.join(PROJECT_ROOT, 'docker-compose.yml'), 'utf8');
    expect(compose).toContain('./deploy/temporal/dynamicconfig.yaml:');
  });
});

describe('docker-compose.yml stays in step with `klaxon cluster`', () => {
  const compose = readFileSync(path.join(PROJECT_ROOT, 'docker-compose.yml'), 'utf8');

  it('runs the same Temporal server release', () => {
    expect(compose).toContain(`temporalio/auto-setup:${TEMPORAL_SERVER_VERSION.replace(/^v/, '')}`);
    expect(compose).toContain(`temporalio/ui:`);
  });

  it('with the same number of history shards', () => {
    expect(compose).toContain(`NUM_HISTORY_SHARDS: '${DEFAULT_HISTORY_SHARDS}'`);
  });
});
