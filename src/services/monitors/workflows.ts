import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { WorkflowNotFoundError, type SignalDefinition } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import { monitorWorkflowId, type MonitorWorkflowInput } from '../../contracts/workflows';
import { knexOf } from '../../db/knex';
import { TEMPORAL_CALL_MS, withinDeadline } from '../../temporal/deadline';

/** The columns a monitor's workflow is started from. */
export interface MonitorScheduleRow {
  id: string;
  interval_seconds: number;
  timeout_seconds: number;
  status: string;
}

/** A monitor's workflow input, from its row. */
export const monitorWorkflowInput = (m: MonitorScheduleRow): MonitorWorkflowInput => ({
  monitorId: m.id,
  intervalSeconds: m.interval_seconds,
  timeoutSeconds: m.timeout_seconds,
  paused: m.status === 'PAUSED',
});

/** Starts a monitor's workflow unless it already runs (then nothing changes). */
export function startMonitorWorkflow(temporal: Client, taskQueue: string, m: MonitorScheduleRow): Promise<unknown> {
  return withinDeadline(temporal, TEMPORAL_CALL_MS, () =>
    temporal.workflow.start('monitorWorkflow', {
      workflowId: monitorWorkflowId(m.id),
      taskQueue,
      args: [monitorWorkflowInput(m)],
      workflowIdConflictPolicy: 'USE_EXISTING',
    }),
  );
}

/** Sends a monitor's workflow a signal, starting it from the row if it does not run (self-healing). */
export function signalMonitorWorkflow<T>(temporal: Client, taskQueue: string, m: MonitorScheduleRow, signal: SignalDefinition<[T]>, arg: T): Promise<unknown> {
  return withinDeadline(temporal, TEMPORAL_CALL_MS, () =>
    temporal.workflow.signalWithStart('monitorWorkflow', {
      workflowId: monitorWorkflowId(m.id),
      taskQueue,
      args: [monitorWorkflowInput(m)],
      signal,
      signalArgs: [arg] as [T],
    }),
  );
}

/** Ends a monitor's workflow, if one runs. */
export async function stopMonitorWorkflow(temporal: Client | undefined, id: string): Promise<void> {
  if (!temporal) return;
  try {
    await withinDeadline(temporal, TEMPORAL_CALL_MS, () => temporal.workflow.getHandle(monitorWorkflowId(id)).terminate('monitor deleted'));
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err; // already ended
  }
}

/**
 * Makes sure every ACTIVE HTTP monitor has its workflow running (a worker calls it at start, as it
 * registers the retention schedule): idempotent, a running workflow is left alone. How many were
 * looked at.
 */
export async function ensureMonitorWorkflows(orm: MikroORM | Knex, temporal: Client, taskQueue: string): Promise<number> {
  const db = 'em' in orm ? knexOf(orm) : orm;
  const rows: MonitorScheduleRow[] = await db('monitors')
    .select('id', 'interval_seconds', 'timeout_seconds', 'status')
    .where({ type: 'http', status: 'ACTIVE' });
  for (const m of rows) await startMonitorWorkflow(temporal, taskQueue, m);
  return rows.length;
}
