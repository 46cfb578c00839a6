import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Client, Connection } from '@temporalio/client';
import type { MikroORM } from '@mikro-orm/postgresql';
import { openOrm } from '../../../src/db/orm';
import { createLogger } from '../../../src/logger';
import { knexOf } from '../../../src/db/knex';
import { OutboxRelay } from '../../../src/services/relay';
import { pagingDeps } from '../../../src/stack/paging';
import { loadConfig } from '../../../src/config';
import { createKlaxonWorker } from '../../../src/temporal/worker';
import { incidentWorkflowId, type AlertsReceived } from '../../../src/contracts/workflows';
import { waitFor } from '../../support/wait';
import { incidentWithPending as pendingIncident } from '../../support/outbox';
import { seedWorkspace, type SeededWorkspace } from '../../support/workspace';

/**
 * Two API processes' relays on one database and one Temporal, as `klaxon api` scaled out runs
 * them: each with its own connection pool and Temporal connection, draining the same rows at
 * once. Every event reaches its workflow's history exactly once, in order, and is applied.
 */
let ormA: MikroORM;
let ormB: MikroORM;
let ws: SeededWorkspace;
let relays: OutboxRelay[] = [];
let connections: Connection[] = [];
let temporal: Client;
let stopWorker: () => Promise<void>;

beforeAll(async () => {
  const url = process.env.KLAXON_TEST_DATABASE_URL!;
  const address = process.env.KLAXON_TEST_TEMPORAL_ADDRESS!;
  ormA = await openOrm(url, 6);
  ormB = await openOrm(url, 6);
  ws = await seedWorkspace(ormA);
  const taskQueue = `two-relays-${randomUUID()}`;
  const config = loadConfig({ DATABASE_URL: url, TEMPORAL_ADDRESS: address, KLAXON_SECRET: 'two-relays-test-secret-0123456789' });
  const workflowBundle = { code: readFileSync(process.env.KLAXON_TEST_WORKFLOW_BUNDLE!, 'utf8') };
  const { worker, connection } = await createKlaxonWorker({
    address,
    namespace: 'default',
    taskQueue,
    orm: ormA,
    workflowBundle,
    paging: pagingDeps(config, ormA),
  });
  const running = worker.run();
  stopWorker = async () => {
    worker.shutdown();
    await running;
    await connection.close();
  };
  connections = await Promise.all([Connection.connect({ address }), Connection.connect({ address })]);
  temporal = new Client({ connection: connections[0], namespace: 'default' });
  relays = [ormA, ormB].map(
    (orm, i) =>
      new OutboxRelay({
        orm,
        temporal: new Client({ connection: connections[i], namespace: 'default' }),
        taskQueue,
        logger: createLogger('silent'),
        batchSize: 25,
      }),
  );
});
afterAll(async () => {
  await Promise.all(relays.map((r) => r.stop()));
  await stopWorker?.();
  await Promise.all(connections.map((c) => c.close()));
  await ormA?.close();
  await ormB?.close();
});

const db = () => knexOf(ormA);

/** The event ids of every `alertsReceived` signal in the incident's workflow history, in history order. */
async function signalledEvents(incidentId: string): Promise<string[]> {
  const history = await temporal.workflow.getHandle(incidentWorkflowId(incidentId)).fetchHistory();
  return (history.events ?? [])
    .map((e) => e.workflowExecutionSignaledEventAttributes)
    .filter((s) => s?.signalName === 'alertsReceived')
    .flatMap((s) => (JSON.parse(Buffer.from(s!.input!.payloads![0].data!).toString('utf8')) as AlertsReceived).events.map((e) => e.eventId));
}

describe('two relays against real Temporal', () => {
  it("when two relays drain the same incidents at once, then each event is in its workflow's history exactly once, in order, and applied once", async () => {
    const incidents = await Promise.all(Array.from({ length: 12 }, () => pendingIncident(ormA, ws, 8, { createdEntry: true })));
    const ids = incidents.map((i) => i.id);
    for (const relay of relays) relay.start(100);
    await waitFor(
      async () => Number((await db()('ingest_outbox').whereIn('incident_id', ids).whereNull('delivered_at').count({ n: '*' }))[0].n) === 0,
      60_000,
      'the outbox to drain',
    );

    // Applied: one timeline entry per attached alert (the opening event is the incident itself).
    await waitFor(
      async () => {
        const counts = await db()('timeline_entries')
          .whereIn('incident_id', ids)
          .where({ type: 'alert_attached' })
          .groupBy('incident_id')
          .select('incident_id')
          .count({ n: '*' });
        return counts.length === ids.length && counts.every((c) => Number(c.n) === 7);
      },
      60_000,
      'seven attached entries per incident',
    );
    // Signals that arrive while a workflow task runs are written to history when it completes:
    // wait for every event to show, then check that none shows twice and the order held.
    for (const incident of incidents) {
      const signalled = await waitFor(
        async () => {
          const events = await signalledEvents(incident.id);
          return incident.eventIds.every((id) => events.includes(id)) && events;
        },
        30_000,
        'every event in the history',
      );
      expect(signalled).toEqual(incident.eventIds);
    }
  });
});
