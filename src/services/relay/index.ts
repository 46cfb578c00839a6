/**
 * The ingestion outbox relay: a background process in every API process that delivers stored
 * alert events (`ingest_outbox` rows) to their incident workflows, batched per incident, and
 * marks them delivered. It owns the `ingest_outbox` table's delivery columns.
 */
export { OutboxRelay } from './relay';
export { repeatWaitMs } from './pacing';
