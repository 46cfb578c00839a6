import type { MikroORM } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import { incidentWorkflowId, maintenanceChangedSignal } from '../../contracts/workflows';
import { knexOf } from '../../db/knex';
import { TEMPORAL_CALL_MS, withinDeadline } from '../../temporal/deadline';

/** The most incidents one window change wakes; the rest page when their own timers run out. */
const MAX_NUDGED = 1000;
/** Signals in flight at once. */
const PARALLEL = 20;

/**
 * Wakes the workflows of the TRIGGERED incidents of these services after a window was ended
 * early or deleted, so a held escalation plans again at once (docs/maintenance-windows.md).
 * Best effort: the change is already committed, and a workflow not reached still pages when its
 * hold's timer runs out. Answers how many were reached and how many were not.
 */
export async function nudgeHeldIncidents(
  deps: { orm: MikroORM; temporal?: Client },
  input: { organizationId: string; serviceIds: string[] },
): Promise<{ nudged: number; failed: number }> {
  const temporal = deps.temporal;
  if (!temporal || input.serviceIds.length === 0) return { nudged: 0, failed: 0 };
  const ids: string[] = await knexOf(deps.orm)('incidents')
    .where({ organization_id: input.organizationId, status: 'TRIGGERED' })
    .whereIn('service_id', input.serviceIds)
    .orderBy('created_at')
    .limit(MAX_NUDGED)
    .pluck('id');
  let failed = 0;
  for (let i = 0; i < ids.length; i += PARALLEL) {
    const results = await Promise.allSettled(
      ids
        .slice(i, i + PARALLEL)
        .map((id) => withinDeadline(temporal, TEMPORAL_CALL_MS, () => temporal.workflow.getHandle(incidentWorkflowId(id)).signal(maintenanceChangedSignal))),
    );
    failed += results.filter((r) => r.status === 'rejected').length;
  }
  return { nudged: ids.length - failed, failed };
}
