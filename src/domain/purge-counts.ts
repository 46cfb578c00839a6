/**
 * What a retention purge reports: rows deleted per table. Its own module, importing nothing, so
 * the retention workflow can sum its passes inside the sandbox.
 */

/** Tables a purge deletes from, in the order it reports them. */
export const PURGED_TABLES = [
  'idempotency_records',
  'ingest_outbox',
  'provider_callbacks',
  'dev_deliveries',
  'incidents',
  'alerts',
  'timeline_entries',
  'notifications',
  'user_notifications',
  'sessions',
  'account_tokens',
  'invitations',
  'request_metrics',
  'latency_metrics',
  'monitor_checks',
  'throttle_counts',
  'incident_events',
  'feed_deliveries',
  'slack_messages',
  'chat_action_nonces',
  'carrier_attempts',
  'carrier_early_reports',
  'incident_first_pages',
] as const;
export type PurgedTable = (typeof PURGED_TABLES)[number];

/** Rows deleted per table. */
export type PurgeCounts = Record<PurgedTable, number>;

export const noPurgeCounts = (): PurgeCounts => Object.fromEntries(PURGED_TABLES.map((t) => [t, 0])) as PurgeCounts;

/** Two passes' counts together (the retention workflow sums its passes). */
export function addPurgeCounts(a: PurgeCounts, b: PurgeCounts): PurgeCounts {
  // `?? 0`: a pass run by an older worker reports fewer tables.
  return Object.fromEntries(PURGED_TABLES.map((t) => [t, (a[t] ?? 0) + (b[t] ?? 0)])) as PurgeCounts;
}
