import type { Client } from '@temporalio/client';
import { alertsReceivedSignal, type IncidentWorkflowInput } from '../../contracts/workflows';
import { incidentStartOptions } from '../incident/workflow-start';
import type { PendingRow } from './outbox-rows';

const DELIVERY_DEADLINE_MS = 10_000;

/** Where signals go: the Temporal client and task queue, and whether a worker shares the connection. */
export interface DeliveryTarget {
  temporal: Client;
  taskQueue: string;
  /**
   * `temporal` shares its connection with a worker polling `taskQueue` in this process: a new
   * incident's workflow starts eagerly, its first workflow task handed straight to that worker.
   */
  eagerStart?: boolean;
  /** AUTO_CLOSE_HOURS, given to the workflows these deliveries start. */
  autoCloseHours?: number;
}

/** One signal carrying a batch of one incident's events, starting its workflow if need be. */
export async function deliverBatch({ temporal, taskQueue, eagerStart, autoCloseHours }: DeliveryTarget, batch: PendingRow[]): Promise<void> {
  const [first] = batch;
  const input: IncidentWorkflowInput = {
    incidentId: first.incident_id,
    organizationId: first.organization_id,
    serviceId: first.service_id,
    severity: first.severity,
    status: first.status,
    seq: first.last_seq,
  };
  const events = batch.map((row) => ({
    eventId: row.event_id,
    kind: row.kind,
    title: row.title,
    ...(row.incident_seq === null ? {} : { acceptedAtSeq: row.incident_seq }),
    ...(row.detail === null || row.detail === undefined ? {} : { detail: row.detail }),
  }));
  // A deadline, so a call stuck on a half-dead connection cannot wedge the relay.
  await temporal.withDeadline(Date.now() + DELIVERY_DEADLINE_MS, async () => {
    if (!eagerStart || first.kind !== 'opened') {
      await temporal.workflow.signalWithStart('incidentWorkflow', {
        ...incidentStartOptions(taskQueue, input, autoCloseHours),
        signal: alertsReceivedSignal,
        signalArgs: [{ events }],
      });
      return;
    }
    // A new incident: its opening event is the start itself. Started eagerly, the first workflow
    // task (and its first page) skips the server's task queue. Redelivered after a crash, the
    // start finds the running workflow and changes nothing.
    const opened = { ...input, appliedEventIds: [first.event_id] };
    const handle = await temporal.workflow.start('incidentWorkflow', {
      ...incidentStartOptions(taskQueue, opened, autoCloseHours),
      workflowIdConflictPolicy: 'USE_EXISTING',
      requestEagerStart: true,
    });
    if (events.length > 1) await handle.signal(alertsReceivedSignal, { events: events.slice(1) });
  });
}
