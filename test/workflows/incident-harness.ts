import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { LifecycleOperation } from '../../src/domain/incident-lifecycle';
import { lifecycleUpdates, type IncidentSnapshot, type IncidentWorkflowInput } from '../../src/contracts/workflows';
import type { incidentWorkflow } from '../../workflows/incident/workflow';
import { PagingStubs, type PagingStubOptions } from './paging-stubs';

/** A running incident workflow on its own task queue, paging through stubs. */
export interface StubbedIncident {
  stubs: PagingStubs;
  handle: WorkflowHandle<typeof incidentWorkflow>;
  /** Runs a lifecycle update as a user; answers when the workflow has applied it. */
  update(op: LifecycleOperation): Promise<IncidentSnapshot>;
}

/**
 * The real incident workflow bundle on the run's Temporal server (test/setup/global-setup.ts),
 * with stub activities: one client per file, one worker and task queue per incident.
 */
export function useStubbedIncidents() {
  let connection: Connection;
  let client: Client;
  let native: NativeConnection;
  const workers: Array<{ worker: Worker; run: Promise<void> }> = [];
  const handles: Array<WorkflowHandle<typeof incidentWorkflow>> = [];
  const code = () => readFileSync(process.env.KLAXON_TEST_WORKFLOW_BUNDLE!, 'utf8');

  beforeAll(async () => {
    const address = process.env.KLAXON_TEST_TEMPORAL_ADDRESS!;
    connection = await Connection.connect({ address });
    client = new Client({ connection });
    native = await NativeConnection.connect({ address });
  });

  afterEach(async () => {
    // Incidents a test left open would keep their timers on the shared server.
    await Promise.all(handles.splice(0).map((h) => h.terminate('test over').catch(() => undefined)));
    const running = workers.splice(0);
    for (const w of running) w.worker.shutdown();
    await Promise.all(running.map((w) => w.run));
  });

  afterAll(async () => {
    await native?.close();
    await connection?.close();
  });

  /** Starts an incident, TRIGGERED at seq 1 unless `input` says otherwise, with its own worker. */
  async function start(opts: PagingStubOptions, input: Partial<IncidentWorkflowInput> = {}): Promise<StubbedIncident> {
    const stubs = new PagingStubs(opts);
    const taskQueue = `escalation-test-${randomUUID()}`;
    const worker = await Worker.create({ connection: native, taskQueue, workflowBundle: { code: code() }, activities: stubs.activities() });
    workers.push({ worker, run: worker.run() });
    const incidentId = randomUUID();
    const handle = await client.workflow.start<typeof incidentWorkflow>('incidentWorkflow', {
      taskQueue,
      workflowId: `incident-${incidentId}`,
      args: [{ incidentId, organizationId: randomUUID(), serviceId: null, severity: 'CRITICAL', status: 'TRIGGERED', seq: 1, ...input }],
    });
    handles.push(handle);
    const actor = { type: 'user' as const, id: randomUUID(), via: 'test' };
    return { stubs, handle, update: (op) => handle.executeUpdate(lifecycleUpdates[op], { args: [{ actor }] }) };
  }

  return { start, client: () => client };
}
