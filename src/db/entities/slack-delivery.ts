import { EntitySchema } from '@mikro-orm/core';

/**
 * One feed event to show in one Slack channel, and how its attempts went: the columns of
 * `outgoing_webhook_deliveries` (the shared delivery queue claims them in `laneSeq` order per
 * channel × incident), plus the thread reply's ts and whether it was skipped.
 */
export interface SlackDelivery {
  id: string;
  laneSeq: bigint;
  /** The Slack channel (`C…`) the service's chat settings named when the event was taken. */
  channelId: string;
  organizationId: string;
  eventId: string;
  incidentId: string | null;
  type: string;
  /** The event as consumers get it (IncidentEventBody). */
  event: Record<string, unknown>;
  attempts: number;
  nextAttemptAt: Date | null;
  leasedUntil: Date | null;
  deliveredAt: Date | null;
  /** Given up: the retry schedule ran out, a permanent Slack error, or skipped. */
  parkedAt: Date | null;
  /** Parked without an attempt: Slack disconnected, or the plan has no chat. */
  skipped: boolean;
  /** The thread reply's ts once posted: a retried attempt does not reply again. */
  replyTs: string | null;
  lastStatusCode: number | null;
  /** Slack's error code (`channel_not_found`, …) or why it was skipped. */
  lastError: string | null;
  latencyMs: number | null;
  createdAt: Date;
}

export const SlackDeliverySchema = new EntitySchema<SlackDelivery>({
  name: 'SlackDelivery',
  tableName: 'slack_deliveries',
  indexes: [
    {
      name: 'slack_deliveries_pending_index',
      expression: 'create index "slack_deliveries_pending_index" on "slack_deliveries" ("lane_seq") where "delivered_at" is null and "parked_at" is null',
    },
    {
      name: 'slack_deliveries_lane_index',
      expression:
        'create index "slack_deliveries_lane_index" on "slack_deliveries" ("channel_id", "incident_id", "lane_seq") where "delivered_at" is null and "parked_at" is null',
    },
    { name: 'slack_deliveries_created_index', properties: ['createdAt'] },
    { name: 'slack_deliveries_incident_index', properties: ['incidentId', 'channelId'] },
  ],
  properties: {
    id: { type: 'uuid', primary: true },
    laneSeq: { type: 'bigint', autoincrement: true, unique: true },
    channelId: { type: 'string', length: 32 },
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
    skipped: { type: 'boolean', default: false },
    replyTs: { type: 'string', length: 32, nullable: true },
    lastStatusCode: { type: 'integer', nullable: true },
    lastError: { type: 'text', nullable: true },
    latencyMs: { type: 'integer', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz', defaultRaw: 'now()' },
  },
});
