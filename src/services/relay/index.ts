/**
 * The ingestion outbox relay: a background process in every API process (or in `klaxon relay`
 * processes, woken over NOTIFY: wakeups.ts, when the API runs with OUTBOX_RELAY=off) that delivers stored
 * alert events (`ingest_outbox` rows) to their incident workflows, batched per incident, and
 * marks them delivered; rows are claimed per pass so any number of processes may run. It owns
 * the `ingest_outbox` table's delivery columns, and its dead letters (parked.ts).
 */
export { OutboxRelay } from './relay';
export { repeatWaitMs } from './pacing';
export { MAX_ATTEMPTS } from './retry-policy';
export { listParked, outboxHealth, retryAllParked, retryParked, type OutboxHealth, type ParkedMessage } from './parked';
