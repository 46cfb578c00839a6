import type { MikroORM } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import { escalateNowSignal, incidentWorkflowId, type Actor, type IncidentSnapshot } from '../../contracts/workflows';
import { TEMPORAL_CALL_MS, withinDeadline } from '../../temporal/deadline';
import { conflict } from '../errors';
import { getIncident } from './incidents';

/**
 * "Escalate now": pages the incident's next escalation step at once (the `escalateNow` signal, as
 * the dashboard's button and a voice call's key 2 do); only a TRIGGERED incident escalates (409).
 */
export async function escalateIncidentNow(
  deps: { orm: MikroORM; temporal: Client },
  input: { organizationId: string; incidentId: string; actor: Actor },
): Promise<IncidentSnapshot> {
  const incident = await getIncident(deps, input.organizationId, input.incidentId);
  if (incident.status !== 'TRIGGERED')
    throw conflict(`incident #${incident.number} is ${incident.status}: only a triggered incident escalates`, 'invalid_transition');
  await withinDeadline(deps.temporal, TEMPORAL_CALL_MS, () =>
    deps.temporal.workflow.getHandle(incidentWorkflowId(incident.id)).signal(escalateNowSignal, { actor: input.actor }),
  );
  return incident;
}
