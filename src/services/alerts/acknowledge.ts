import type { Actor } from '../../../workflows/definitions';
import { transitionIncident, type IncidentDeps } from '../incident';
import { getAlert, incidentOfAlert } from './read';
import type { AlertRecord } from './view';

/**
 * Acknowledges an alert: its incident, through the incident's workflow, which stops its
 * escalation. Acknowledging twice is answered as success (the workflow's no-op); a move the
 * incident cannot make (RESOLVED, CLOSED, INVESTIGATING) is the workflow's 409
 * `invalid_transition`. Answers the alert as it now reads.
 */
export async function acknowledgeAlert(deps: IncidentDeps, input: { organizationId: string; alertId: string; actor: Actor }): Promise<AlertRecord> {
  const incidentId = await incidentOfAlert(deps, input.organizationId, input.alertId);
  await transitionIncident(deps, { organizationId: input.organizationId, incidentId, operation: 'acknowledge', actor: input.actor });
  return getAlert(deps, input.organizationId, input.alertId);
}
