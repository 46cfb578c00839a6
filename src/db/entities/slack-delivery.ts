import { EntitySchema } from '@mikro-orm/core';
import { DELIVERY_QUEUE_PROPERTIES, deliveryQueueIndexes, type DeliveryQueueRow } from './delivery-queue';

/**
 * One feed event to show in one Slack channel, and how its attempts went: the columns of
 * `outgoing_webhook_deliveries` (the shared delivery queue claims them in `laneSeq` order per
 * channel × incident), plus the thread reply's ts and when it was skipped.
 */
export interface SlackDelivery extends DeliveryQueueRow {
  /** The Slack channel (`C…`) the service's chat settings named when the event was taken. */
  channelId: string;
  /** Not sent: Slack disconnected, or the plan has no chat (parked too). */
  skippedAt: Date | null;
  /** The thread reply's ts once posted: a retried attempt does not reply again. */
  replyTs: string | null;
}

export const SlackDeliverySchema = new EntitySchema<SlackDelivery>({
  name: 'SlackDelivery',
  tableName: 'slack_deliveries',
  indexes: [
    ...deliveryQueueIndexes('slack_deliveries', 'channel_id'),
    { name: 'slack_deliveries_created_index', properties: ['createdAt'] },
    { name: 'slack_deliveries_incident_index', properties: ['incidentId', 'channelId'] },
  ],
  properties: {
    ...DELIVERY_QUEUE_PROPERTIES,
    channelId: { type: 'string', length: 32 },
    skippedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    replyTs: { type: 'string', length: 32, nullable: true },
  },
});
