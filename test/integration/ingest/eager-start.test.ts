import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Client } from '@temporalio/client';
import type { MikroORM } from '@mikro-orm/postgresql';
import { openOrm } from '../../../src/db/orm';
import { createLogger } from '../../../src/logger';
import { knexOf } from '../../../src/db/knex';
import { OutboxRelay } from '../../../src/services/relay/relay';
import { pagingDeps } from '../../../src/stack/paging';
import { loadConfig } from '../../../src/config';
import { createKlaxonWorker } from '../../../src/temporal/worker';
import { incidentWorkflowId } from '../../../src/contracts/workflows';
import { waitFor } from '../../support/wait';
import { incidentWithPending as pendingIncident } from '../../support/outbox';
import { seedWorkspace, type SeededWorkspace } from '../../support/workspace';

/**
 * The relay as `klaxon start` runs it: sharing the worker's connection, it starts a new
 * incident's workflow eagerly (the first workflow task handed straight to this worker) with the
 * opening event as input, and signals the events that came after it.
 */
let orm: MikroORM;
let ws: SeededWorkspace;
let relay: OutboxRelay;
let temporal: Client;
let stopWorker: () => Promise<void>;

beforeAll(async () => {
  orm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 10);
  ws = await seedWorkspace(orm);
  const taskQueue = `eager-${randomUUID()}`;
  const address = process.env.KLAXON_TEST_TEMPORAL_ADDRESS!;
  const config = loadConfig({
    DATABASE_URL: process.env.KLAXON_TEST_DATABASE_URL!,
    TEMPORAL_ADDRESS: address,
    KLAXON_SECRET: 'eager-start-test-secret-0123456789',
  });
  const workflowBundle = { code: readFileSync(process.env.KLAXON_TEST_WORKFLOW_BUNDLE!, 'utf8') };
  const { worker, connection } = await createKlaxonWorker({ address, namespace: 'default', taskQueue, orm, workflowBundle, paging: pagingDeps(config, orm) });
  const running = worker.run();
  temporal = new Client({ connection, namespace: 'default' });
  relay = new OutboxRelay({ orm, temporal, taskQueue, logger: createLogger('silent'), eagerStart: true });
  stopWorker = async () => {
    worker.shutdown();
    await running;
    await connection.close();
  };
});
afterAll(async () => {
  await relay?.stop();
  await stopWorker?.();
  await orm?.close();
});

const db = () => knexOf(orm);

const incidentWithPending = (events: number) => pendingIncident(orm, ws, events, { createdEntry: true });
/** The timeline without the escalation's paging decision (its workspace has nobody to page), which may land before or after the attached alerts. */
const entriesOf = (id: string) => db()('timeline_entries').where({ incident_id: id }).whereNot({ type: 'paging_decision' }).orderBy('seq');
const undelivered = (id: string) => db()('ingest_outbox').where({ incident_id: id }).whereNull('delivered_at');

describe('eager start of new incidents', () => {
  it('when a new incident is relayed, then its workflow starts eagerly with the opening event applied, and later events attach once', async () => {
    const { id } = await incidentWithPending(3);
    relay.kick();
    await waitFor(async () => (await undelivered(id)).length === 0, 15_000, 'the rows delivered');
    await waitFor(async () => (await entriesOf(id)).length === 3, 15_000, 'two attached entries');

    const history = await temporal.workflow.getHandle(incidentWorkflowId(id)).fetchHistory();
    const started = history.events![0].workflowExecutionStartedEventAttributes!;
    expect(started.eagerExecutionAccepted).toBe(true);
    expect(history.events!.filter((e) => e.workflowExecutionSignaledEventAttributes)).toHaveLength(1); // the two attached events, one signal
    expect((await entriesOf(id)).map((e) => e.type)).toEqual(['created', 'alert_attached', 'alert_attached']);
  });

  it('when the opening row is relayed again (a crash before it was marked delivered), then the running workflow is kept and nothing is added', async () => {
    const { id } = await incidentWithPending(2);
    relay.kick();
    await waitFor(async () => (await entriesOf(id)).length === 2, 15_000, 'the attached entry');
    const handle = temporal.workflow.getHandle(incidentWorkflowId(id));
    const runId = (await handle.describe()).runId;

    await db()('ingest_outbox').where({ incident_id: id }).update({ delivered_at: null });
    relay.kick();
    await waitFor(async () => (await undelivered(id)).length === 0, 15_000, 'the rows delivered again');
    await new Promise((r) => setTimeout(r, 1000));
    expect((await handle.describe()).runId).toBe(runId);
    expect((await entriesOf(id)).map((e) => e.type)).toEqual(['created', 'alert_attached']);
  });
});
