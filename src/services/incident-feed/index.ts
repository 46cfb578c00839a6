/**
 * The incident-event feed's consumer side (docs/integrations.md): taking the feed by position
 * (feed.ts), the delivery queue every consumer's rows go through (delivery-queue.ts) and the pass
 * loop that drains one (queue-consumer.ts). The feed itself is written by the incident store
 * (src/services/incident/), its one writer.
 */
export { eventBody, FEED_RECORDSET, feedLag, feedRecords, takeFeedEvents, type FeedEvent } from './feed';
export {
  afterFailedAttempt,
  claimDue,
  FEED_RETRY_SCHEDULE_MS,
  externalRefOf,
  FEED_DELIVERIES,
  parkDelivery,
  parkTarget,
  recordAttempt,
  recordExternalRef,
  type AttemptOutcome,
  type DeliveryQueue,
  type DueDelivery,
} from './delivery-queue';
export { FeedQueueConsumer, type QueueSettings } from './queue-consumer';
export { FEED_DELIVERY_STATUSES, listFeedDeliveries, type FeedDeliveryJson, type FeedDeliveryQuery, type FeedDeliveryStatus } from './deliveries-view';
