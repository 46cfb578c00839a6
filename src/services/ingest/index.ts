/**
 * Ingestion: from an accepted-looking request to durably stored alerts. Sources (secret URLs)
 * and heartbeats (check-in URLs) say where an alert comes from; `accept.ts` parses and answers,
 * `group-commit.ts` + `batch.ts` write requests together, `routing.ts` decides which incident
 * each alert joins (dedup) and queues it in the ingestion outbox for the relay; `sns.ts` checks
 * AWS SNS envelopes. Native payload parsers are pure and live in src/domain/ingest/native/.
 */
export { Ingestion, type IngestAnswer, type IngestInput, type IngestOptions } from './accept';
export * from './heartbeats';
export * from './sources';
export { createdAlert, findCompatSource, type CompatSource } from './compat-sources';
export { createSnsVerifier, type SnsOptions, type SnsVerifier } from './sns';
export { OPEN_STATUSES, storeResolve, storeTriggers, type SourceRef, type TriggerRow } from './routing';
