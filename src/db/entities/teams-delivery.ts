import { EntitySchema } from '@mikro-orm/core';

/**
 * One incident event to post to a service's Microsoft Teams webhook as a card, and how its
 * attempts went (docs/chat.md). A service's cards of one incident go in `laneSeq` order.
 */
export interface TeamsDelivery {
  id: string;
  laneSeq: bigint;
  /** The service whose Teams Workflows webhook URL (service_chat_settings) receives the card. */
  serviceId: string;
  organizationId: string;
  eventId: string;
  incidentId: string | null;
  type: string;
  /** The feed event the card is made from (its incident as it stood right after the change). */
  event: Record<string, unknown>;
  attempts: number;
  nextAttemptAt: Date | null;
  leasedUntil: Date | null;
  deliveredAt: Date | null;
  /** Gave up: the retry schedule ran out, Teams refused it for good, the URL was removed, or skipped. */
  parkedAt: Date | null;
  /** Not sent: the workspace's plan has no chat (parked too). */
  skippedAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  latencyMs: number | null;
  createdAt: Date;
}

export const TeamsDeliverySchema = new EntitySchema<TeamsDelivery>({
  name: 'TeamsDelivery',
  tableName: 'teams_deliveries',
  indexes: [
    {
      name: 'teams_deliveries_pending_index',
      expression: 'create index "teams_deliveries_pending_index" on "teams_deliveries" ("lane_seq") where "delivered_at" is null and "parked_at" is null',
    },
    {
      name: 'teams_deliveries_lane_index',
      expression:
        'create index "teams_deliveries_lane_index" on "teams_deliveries" ("service_id", "incident_id", "lane_seq") where "delivered_at" is null and "parked_at" is null',
    },
    { name: 'teams_deliveries_created_index', properties: ['createdAt'] },
  ],
  properties: {
    id: { type: 'uuid', primary: true },
    laneSeq: { type: 'bigint', autoincrement: true, unique: true },
    serviceId: { type: 'uuid' },
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
    lastStatusCode: { type: 'integer', nullable: true },
    lastError: { type: 'text', nullable: true },
    latencyMs: { type: 'integer', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz', defaultRaw: 'now()' },
  },
});
