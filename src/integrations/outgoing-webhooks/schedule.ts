/*
 * A failed delivery is retried on the feed's one schedule (FEED_RETRY_SCHEDULE_MS in
 * src/services/incident-feed/delivery-queue.ts); what is outgoing webhooks' own follows.
 */

/** A subscription whose deliveries have failed, with no success since, this long is disabled. */
export const FAILING_DISABLES_AFTER_MS = 3 * 24 * 3_600_000;

/** How long one attempt may take (connect, send, answer). */
export const ATTEMPT_TIMEOUT_MS = 10_000;

/** The status that disables a subscription at once: the receiver says it is gone for good. */
export const GONE_STATUS = 410;
