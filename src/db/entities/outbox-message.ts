import { EntitySchema } from '@mikro-orm/core';

/**
 * An accepted event still to be delivered to its incident's workflow. Written in the same
 * transaction as the event; the relay deletes nothing and marks `deliveredAt` once it landed
 * (or parks it after repeated failures).
 */
export interface OutboxMessage {
  id: string;
  incidentId: string;
  /** The alert this message carries; the workflow ignores one it has already applied. */
  eventId: string;
  kind: 'opened' | 'attached' | 'resolved' | 'acknowledged';
  /** For a resolve: the incident's last seq when it was accepted (a later reopen makes it stale). */
  incidentSeq: number | null;
  /** For a sender's acknowledge: how it asked (`via PagerDuty Events API`), said on the timeline. */
  detail: string | null;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
  /** After a failed delivery (not an outage): not retried before this. */
  nextAttemptAt: Date | null;
  /** Failed too often: a dead letter, no longer delivered until `klaxon outbox retry`. */
  parkedAt: Date | null;
  /**
   * Insertion order, from a sequence: the relay's "oldest first". Not `createdAt`: a batch shares
   * one timestamp, and it is taken before the batch waits for its dedup-key locks, so it can
   * order two batches of one incident against the order they were accepted in.
   */
  seq: bigint;
}

export const OutboxMessageSchema = new EntitySchema<OutboxMessage>({
  name: 'OutboxMessage',
  tableName: 'ingest_outbox',
  indexes: [
    {
      name: 'ingest_outbox_pending_idx',
      expression: 'create index "ingest_outbox_pending_idx" on "ingest_outbox" ("seq") where "delivered_at" is null and "parked_at" is null',
    },
    {
      name: 'ingest_outbox_pending_incident_idx',
      expression:
        'create index "ingest_outbox_pending_incident_idx" on "ingest_outbox" ("incident_id", "seq") where "delivered_at" is null and "parked_at" is null',
    },
    {
      name: 'ingest_outbox_backing_off_idx',
      expression:
        'create index "ingest_outbox_backing_off_idx" on "ingest_outbox" ("incident_id", "seq") where "delivered_at" is null and "parked_at" is null and "next_attempt_at" is not null',
    },
    {
      name: 'ingest_outbox_parked_idx',
      expression: 'create index "ingest_outbox_parked_idx" on "ingest_outbox" ("seq") where "parked_at" is not null and "delivered_at" is null',
    },
    // The retention purge: delivered messages by when they were delivered.
    {
      name: 'ingest_outbox_delivered_idx',
      expression: 'create index "ingest_outbox_delivered_idx" on "ingest_outbox" ("delivered_at") where "delivered_at" is not null',
    },
  ],
  properties: {
    id: { type: 'uuid', primary: true },
    incidentId: { type: 'uuid', index: true },
    eventId: { type: 'uuid' },
    kind: { type: 'string', length: 16 },
    incidentSeq: { type: 'integer', nullable: true },
    detail: { type: 'string', length: 200, nullable: true },
    attempts: { type: 'integer', default: 0 },
    lastError: { type: 'text', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    deliveredAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    nextAttemptAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    parkedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    seq: { type: 'bigint', autoincrement: true },
  },
});
