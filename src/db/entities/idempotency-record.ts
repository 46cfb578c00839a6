import { EntitySchema } from '@mikro-orm/core';

/** The first answer to an Idempotency-Key on a source, kept for replays until it expires. */
export interface IdempotencyRecord {
  sourceId: string;
  key: string;
  /** SHA-256 of the canonical JSON payload: replays must match it. */
  fingerprint: string;
  eventId: string;
  incidentId: string;
  createdAt: Date;
  expiresAt: Date;
}

export const IdempotencyRecordSchema = new EntitySchema<IdempotencyRecord>({
  name: 'IdempotencyRecord',
  tableName: 'idempotency_records',
  properties: {
    sourceId: { type: 'uuid', primary: true },
    key: { type: 'string', length: 255, primary: true },
    fingerprint: { type: 'string', length: 64 },
    eventId: { type: 'uuid' },
    incidentId: { type: 'uuid' },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    expiresAt: { type: 'Date', columnType: 'timestamptz', index: true },
  },
});
