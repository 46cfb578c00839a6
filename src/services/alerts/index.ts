/**
 * Alerts as the API-key surface shows and moves them (docs/architecture.md, "Inbound webhooks"): list and read them with
 * their incident's state; acknowledge (their incident, through its workflow) and resolve them.
 * `view.ts` is the one shape they are read in; `resolve.ts` the API's one writer of `alerts`
 * (ingestion writes them in src/services/ingest/routing.ts).
 */
export { listAlerts, getAlert, type ListAlertsQuery } from './read';
export { acknowledgeAlert } from './acknowledge';
export { resolveAlert } from './resolve';
export { alertRecord, type AlertRecord } from './view';
export { moveAlerts } from './move';
