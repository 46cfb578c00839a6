import { EntitySchema } from '@mikro-orm/core';

/**
 * One incident event to deliver to one target of one feed consumer, and how its attempts went:
 * the one delivery queue of every consumer of the incident-event feed (outgoing webhooks and the
 * chat integrations; src/services/incident-feed/delivery-queue.ts claims and records them).
 * Attempted in `laneSeq` order per lane, a lane being (consumer, target, incident).
 */
export interface FeedDelivery {
  id: string;
  laneSeq: bigint;
  /** The consumer's registry key: 'outgoing-webhooks', 'slack', 'microsoft-teams', … */
  consumer: string;
  /** The consumer's target: a webhook id, a Slack channel id (`C…`), a service id. */
  targetId: string;
  organizationId: string;
  /** The event's id (the same on every attempt). */
  eventId: string;
  /** Null for a test `ping`. */
  incidentId: string | null;
  type: string;
  /** The event as consumers get it (IncidentEventBody). */
  event: Record<string, unknown>;
  attempts: number;
  nextAttemptAt: Date | null;
  /** Taken by a delivering process until then (a crashed process's lease runs out). */
  leasedUntil: Date | null;
  deliveredAt: Date | null;
  /** Given up: the retry schedule ran out, a permanent refusal, or skipped. */
  parkedAt: Date | null;
  /** Parked without an attempt: the plan has no chat, the provider was disconnected. */
  skippedAt: Date | null;
  /** What an attempt already posted (Slack's thread reply ts): a retry does not post it again. */
  externalRef: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  latencyMs: number | null;
  createdAt: Date;
}

const PENDING = 'where "delivered_at" is null and "parked_at" is null';

export const FeedDeliverySchema = new EntitySchema<FeedDelivery>({
  name: 'FeedDelivery',
  tableName: 'feed_deliveries',
  indexes: [
    {
      name: 'feed_deliveries_pending_index',
      expression: `create index "feed_deliveries_pending_index" on "feed_deliveries" ("consumer", "lane_seq") ${PENDING}`,
    },
    {
      name: 'feed_deliveries_lane_index',
      expression: `create index "feed_deliveries_lane_index" on "feed_deliveries" ("consumer", "target_id", "incident_id", "lane_seq") ${PENDING}`,
    },
    {
      name: 'feed_deliveries_log_index',
      expression: 'create index "feed_deliveries_log_index" on "feed_deliveries" ("consumer", "target_id", "created_at" desc)',
    },
    { name: 'feed_deliveries_created_index', properties: ['createdAt'] },
    { name: 'feed_deliveries_incident_index', properties: ['incidentId', 'consumer', 'targetId'] },
  ],
  properties: {
    id: { type: 'uuid', primary: true },
    laneSeq: { type: 'bigint', autoincrement: true, unique: true },
    consumer: { type: 'text' },
    targetId: { type: 'text' },
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
    skippedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    externalRef: { type: 'text', nullable: true },
    lastStatusCode: { type: 'integer', nullable: true },
    lastError: { type: 'text', nullable: true },
    latencyMs: { type: 'integer', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz', defaultRaw: 'now()' },
  },
});
