import { EntitySchema } from '@mikro-orm/core';

/**
 * One event to deliver to one outgoing webhook, and how its attempts went. Deliveries of one
 * incident to one subscription go in `laneSeq` order; a redelivery is a new row with the same event.
 */
export interface OutgoingWebhookDelivery {
  id: string;
  laneSeq: bigint;
  webhookId: string;
  organizationId: string;
  /** The event's id: the receiver's `webhook-id`, the same on every attempt and redelivery. */
  eventId: string;
  /** Null for a test `ping`. */
  incidentId: string | null;
  type: string;
  /** The body as sent. */
  event: Record<string, unknown>;
  attempts: number;
  nextAttemptAt: Date | null;
  /** Taken by a delivering process until then (a crashed process's lease runs out). */
  leasedUntil: Date | null;
  deliveredAt: Date | null;
  /** Gave up: the retry schedule ran out, or the subscription was disabled. */
  parkedAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  latencyMs: number | null;
  createdAt: Date;
}

export const OutgoingWebhookDeliverySchema = new EntitySchema<OutgoingWebhookDelivery>({
  name: 'OutgoingWebhookDelivery',
  tableName: 'outgoing_webhook_deliveries',
  indexes: [
    {
      name: 'outgoing_webhook_deliveries_pending_index',
      expression:
        'create index "outgoing_webhook_deliveries_pending_index" on "outgoing_webhook_deliveries" ("lane_seq") where "delivered_at" is null and "parked_at" is null',
    },
    {
      name: 'outgoing_webhook_deliveries_lane_index',
      expression:
        'create index "outgoing_webhook_deliveries_lane_index" on "outgoing_webhook_deliveries" ("webhook_id", "incident_id", "lane_seq") where "delivered_at" is null and "parked_at" is null',
    },
    {
      name: 'outgoing_webhook_deliveries_log_index',
      expression: 'create index "outgoing_webhook_deliveries_log_index" on "outgoing_webhook_deliveries" ("webhook_id", "created_at" desc)',
    },
  ],
  properties: {
    id: { type: 'uuid', primary: true },
    laneSeq: { type: 'bigint', autoincrement: true, unique: true },
    webhookId: { type: 'uuid' },
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
  },
});
