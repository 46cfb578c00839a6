import { EntitySchema } from '@mikro-orm/core';
import { DELIVERY_QUEUE_PROPERTIES, deliveryQueueIndexes, type DeliveryQueueRow } from './delivery-queue';

/**
 * One incident event to post to a service's Microsoft Teams webhook as a card, and how its
 * attempts went (docs/chat.md). A service's cards of one incident go in `laneSeq` order.
 */
export interface TeamsDelivery extends DeliveryQueueRow {
  /** The service whose Teams Workflows webhook URL (service_chat_settings) receives the card. */
  serviceId: string;
  /** Not sent: the workspace's plan has no chat (parked too). */
  skippedAt: Date | null;
}

export const TeamsDeliverySchema = new EntitySchema<TeamsDelivery>({
  name: 'TeamsDelivery',
  tableName: 'teams_deliveries',
  indexes: [...deliveryQueueIndexes('teams_deliveries', 'service_id'), { name: 'teams_deliveries_created_index', properties: ['createdAt'] }],
  properties: {
    ...DELIVERY_QUEUE_PROPERTIES,
    serviceId: { type: 'uuid' },
    skippedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});
