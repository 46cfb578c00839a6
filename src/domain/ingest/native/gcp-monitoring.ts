/** Google Cloud Monitoring webhook notification channels (schema version "1.2"). */
import { normaliseSeverity } from '../severity';
import { at, compact, isObject, presentEntries, stringEntries, text } from '../shape';
import type { NativeSender, NormalisedEvent } from '../types';

/** Google Cloud Monitoring: an `incident` object with an `incident_id`. */
export const gcpMonitoringSender: NativeSender = {
  name: 'gcp-monitoring',
  // version "1.2" is what GCP sends today; the incident_id alone keeps older versions in.
  detect: (body) => isObject(body) && isObject(body.incident) && 'incident_id' in body.incident,
  normalise: (body) => {
    const incident = at(body, 'incident');
    const labels = { ...stringEntries(at(incident, 'resource', 'labels')), ...stringEntries(at(incident, 'policy_user_labels')) };
    return [
      compact<NormalisedEvent>({
        source: 'gcp-monitoring',
        action: text(at(incident, 'state'))?.toLowerCase() === 'closed' ? 'resolve' : 'trigger',
        title: text(at(incident, 'policy_name')) ?? text(at(incident, 'condition_name')) ?? 'Google Cloud Monitoring incident',
        // Critical/Error → critical, Warning → warning; "No severity" → warning.
        severity: normaliseSeverity(at(incident, 'severity')),
        dedupKey: text(at(incident, 'incident_id')) ?? null,
        message: text(at(incident, 'summary')),
        description: text(at(incident, 'documentation', 'content')),
        links: presentEntries({ incident: text(at(incident, 'url')) }),
        metadata: Object.keys(labels).length > 0 ? { labels } : undefined,
      }),
    ];
  },
};
