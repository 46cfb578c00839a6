import type { Actor } from '../../contracts/workflows';
import { conflict } from '../errors';
import { transitionIncident, type IncidentDeps } from '../incident';
import { getAlert } from './read';
import type { AlertRecord } from './view';

/**
 * Acknowledges an alert: its incident, through the incident's workflow, which stops its
 * escalation. An alert that already reads `acknowledged` (its incident ACKNOWLEDGED or
 * INVESTIGATING) is answered as it is; a resolved alert is 409 `alert_already_resolved`; a move
 * the incident cannot make (RESOLVED, CLOSED) is the workflow's 409 `invalid_transition`.
 * Answers the alert as it now reads.
 */
export async function acknowledgeAlert(deps: IncidentDeps, input: { organizationId: string; alertId: string; actor: Actor }): Promise<AlertRecord> {
  const alert = await getAlert(deps, input.organizationId, input.alertId);
  if (alert.status === 'acknowledged') return alert;
  if (alert.status === 'resolved') throw conflict(`alert ${alert.id} is already resolved`, 'alert_already_resolved');
  await transitionIncident(deps, { organizationId: input.organizationId, incidentId: alert.incident_id, operation: 'acknowledge', actor: input.actor });
  return getAlert(deps, input.organizationId, input.alertId);
}
