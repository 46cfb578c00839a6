import { EntitySchema } from '@mikro-orm/core';

/**
 * An accepted event still to be delivered to its incident's workflow. Written in the same
 * transaction as the event; the relay deletes nothing and marks `deliveredAt` once it landed.
 */
export interface OutboxMessage {
  id: string;
  incidentId: string;
  /** The alert this message carries; the workflow ignores one it has already applied. */
  eventId: string;
  kind: 'opened' | 'attached' | 'resolved';
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
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
    { name: 'ingest_outbox_pending_idx', expression: 'create index "ingest_outbox_pending_idx" on "ingest_outbox" ("seq") where "delivered_at" is null' },
  ],
  properties: {
    id: { type: 'uuid', primary: true },
    incidentId: { type: 'uuid', index: true },
    eventId: { type: 'uuid' },
    kind: { type: 'string', length: 16 },
    attempts: { type: 'integer', default: 0 },
    lastError: { type: 'text', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    deliveredAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    seq: { type: 'bigint', autoincrement: true },
  },
});
