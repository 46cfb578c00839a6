import { EntitySchema } from '@mikro-orm/core';
import { DELIVERY_QUEUE_PROPERTIES, deliveryQueueIndexes, type DeliveryQueueRow } from './delivery-queue';

/**
 * One event to deliver to one outgoing webhook, and how its attempts went. Deliveries of one
 * incident to one subscription go in `laneSeq` order; a redelivery is a new row with the same event.
 */
export interface OutgoingWebhookDelivery extends DeliveryQueueRow {
  webhookId: string;
}

export const OutgoingWebhookDeliverySchema = new EntitySchema<OutgoingWebhookDelivery>({
  name: 'OutgoingWebhookDelivery',
  tableName: 'outgoing_webhook_deliveries',
  indexes: [
    ...deliveryQueueIndexes('outgoing_webhook_deliveries', 'webhook_id'),
    {
      name: 'outgoing_webhook_deliveries_log_index',
      expression: 'create index "outgoing_webhook_deliveries_log_index" on "outgoing_webhook_deliveries" ("webhook_id", "created_at" desc)',
    },
  ],
  properties: {
    ...DELIVERY_QUEUE_PROPERTIES,
    webhookId: { type: 'uuid' },
  },
});
