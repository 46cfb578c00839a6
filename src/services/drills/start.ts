import type { MikroORM } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import { drillWorkflowId, type DrillWorkflowInput } from '../../contracts/workflows';
import { knexOf } from '../../db/knex';
import { TEMPORAL_CALL_MS, withinDeadline } from '../../temporal/deadline';
import { getDrill, markDrillResultFailed, openDrill, type DrillJson, type NewDrill } from './drills';

/**
 * Starts a drill from the API: writes it, then its workflow (`drill-<id>`), which sends. When
 * Temporal cannot take it, its pending results fail saying so (nothing was sent) and the caller
 * answers 503.
 */
export async function startDrill(orm: MikroORM, temporal: { client: Client; taskQueue: string }, input: NewDrill): Promise<DrillJson> {
  const opened = await openDrill(orm, input);
  const args: [DrillWorkflowInput] = [{ drillId: opened.drill.id, resultIds: opened.pendingResultIds, ackWindowSeconds: input.ackWindowSeconds }];
  try {
    await withinDeadline(temporal.client, TEMPORAL_CALL_MS, () =>
      temporal.client.workflow.start('drillWorkflow', { taskQueue: temporal.taskQueue, workflowId: drillWorkflowId(opened.drill.id), args }),
    );
  } catch (err) {
    for (const id of opened.pendingResultIds) await markDrillResultFailed(knexOf(orm), id, 'not sent: the drill could not be started (Temporal unavailable)');
    throw err;
  }
  return getDrill(orm, input.organizationId, opened.drill.id);
}
