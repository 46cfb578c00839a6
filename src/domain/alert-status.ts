import type { IncidentStatus } from './incident-lifecycle';
import type { Severity } from './severity';

/**
 * How the API-key surface shows an alert (docs/architecture.md, "Inbound webhooks"): an alert row is only ACTIVE or
 * RESOLVED; "acknowledged" is read off its incident. Pure: the SQL filters and the record agree
 * because both come from here.
 */
export const ALERT_STATUSES = ['active', 'acknowledged', 'resolved'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

/** The stored status of an alert row. */
export type AlertRowStatus = 'ACTIVE' | 'RESOLVED';

/** Incident statuses under which an active alert shows as acknowledged: someone is on it. */
export const ACKNOWLEDGING_INCIDENT_STATUSES = ['ACKNOWLEDGED', 'INVESTIGATING'] as const satisfies readonly IncidentStatus[];

/** Incident statuses an incident can still be resolved from (its last alert resolving resolves it). */
export const RESOLVABLE_INCIDENT_STATUSES = ['TRIGGERED', 'ACKNOWLEDGED', 'INVESTIGATING'] as const satisfies readonly IncidentStatus[];

/** An alert's status as shown: resolved wins; else acknowledged while its incident is being handled. */
export function alertStatusOf(alert: AlertRowStatus, incident: IncidentStatus): AlertStatus {
  if (alert === 'RESOLVED') return 'resolved';
  return (ACKNOWLEDGING_INCIDENT_STATUSES as readonly IncidentStatus[]).includes(incident) ? 'acknowledged' : 'active';
}

/** Severity as the API-key surface writes it: the incident scale, lower case. */
export const alertSeverityName = (severity: Severity): Lowercase<Severity> => severity.toLowerCase() as Lowercase<Severity>;
