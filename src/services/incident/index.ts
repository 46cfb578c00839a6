/**
 * Incidents: opening one from the API, reading and listing them, and moving them through their
 * workflow (a Workflow Update, so the answer is the committed state). `store.ts` is the one
 * writer of the `incidents` and `timeline_entries` tables; `view.ts` the one shape they are read
 * in; `workflow-start.ts` how every incident workflow is started; `run-seed.ts` what a run
 * started after earlier ones completed resumes from.
 */
export * from './incidents';
export { escalateIncidentNow } from './escalate-now';
export { toSnapshot, INCIDENT_COLUMNS, type IncidentRow } from './view';
export { incidentStartOptions } from './workflow-start';
export { readRunSeed, type RunSeed } from './run-seed';
// The writes the incident workflow's activities make (status moves, attached alerts, pages).
export { incidentTrace, type PageJson, type TimelineEntryJson } from './trace';
// The mark that an incident takes no more alerts (a sender's or the API's last resolve).
export { closeAlerts, closeAlertsOfOpenIncident, reopenAlerts } from './alerts-closed';
export { recordAlertsAttached, recordPageEntry, recordPagingDecision, recordTransition, type AlertsAttachedEntry, type TransitionEntry } from './store';
// A responder's entries: notes, snoozes, responders added, reassignments, merges (docs/responding.md).
export { recordResponderEntry, type ResponderEntry, type ResponderEntryType } from './responder-entries';
export { addIncidentNote, addIncidentResponders, reassignIncident, snoozeIncident } from './respond';
export { bulkTransition, BULK_ACTIONS, BULK_MAX_INCIDENTS, type BulkAction, type BulkResult } from './bulk';
// A merge's write on the incident merged away (docs/responding.md, "Merge").
export { mergedInto, recordMergedAway, type MergedAwayEntry } from './merge-store';
export { mergeIncidents, MERGE_MAX_INCIDENTS, type MergeResult } from './merge';
