/**
 * What every delivery queue of the incident-event feed holds (src/services/incident-feed/
 * delivery-queue.ts claims and records them): one row per event and target, attempted in
 * `laneSeq` order per target × incident. Outgoing webhooks, Slack messages and Teams cards add
 * their target column and what is theirs alone.
 */
export interface DeliveryQueueRow {
  id: string;
  laneSeq: bigint;
  organizationId: string;
  /** The event's id (the same on every attempt). */
  eventId: string;
  /** Null for a test `ping`. */
  incidentId: string | null;
  type: string;
  /** The event as consumers get it (IncidentEventBody), or the body as sent. */
  event: Record<string, unknown>;
  attempts: number;
  nextAttemptAt: Date | null;
  /** Taken by a delivering process until then (a crashed process's lease runs out). */
  leasedUntil: Date | null;
  deliveredAt: Date | null;
  /** Given up: the retry schedule ran out, a permanent refusal, or skipped. */
  parkedAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  latencyMs: number | null;
  createdAt: Date;
}

/** The queue's columns, for an entity schema's `properties` beside its target column. */
export const DELIVERY_QUEUE_PROPERTIES = {
  id: { type: 'uuid', primary: true },
  laneSeq: { type: 'bigint', autoincrement: true, unique: true },
  organizationId: { type: 'uuid' },
  eventId: { type: 'uuid' },
  incidentId: { type: 'uuid', nullable: true },
  type: { type: 'text' },
  event: { type: 'json' },
  attempts: { type: 'integer', default: 0 },
  nextAttemptAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  leasedUntil: { type: 'Date', columnType: 'timestamptz', nullable: true },
  deliveredAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  parkedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  lastStatusCode: { type: 'integer', nullable: true },
  lastError: { type: 'text', nullable: true },
  latencyMs: { type: 'integer', nullable: true },
  createdAt: { type: 'Date', columnType: 'timestamptz', defaultRaw: 'now()' },
} as const;

/** The queue's two partial indexes: what is pending, and one lane's pending rows in order. */
export function deliveryQueueIndexes(table: string, targetColumn: string): Array<{ name: string; expression: string }> {
  const pending = 'where "delivered_at" is null and "parked_at" is null';
  return [
    { name: `${table}_pending_index`, expression: `create index "${table}_pending_index" on "${table}" ("lane_seq") ${pending}` },
    {
      name: `${table}_lane_index`,
      expression: `create index "${table}_lane_index" on "${table}" ("${targetColumn}", "incident_id", "lane_seq") ${pending}`,
    },
  ];
}
