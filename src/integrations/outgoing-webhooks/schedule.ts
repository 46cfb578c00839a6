/**
 * When a failed delivery is tried again: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after each
 * failure (the schedule Standard Webhooks senders use), then it is given up (parked).
 */
export const RETRY_SCHEDULE_MS: readonly number[] = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

/** A subscription whose deliveries have failed, with no success since, this long is disabled. */
export const FAILING_DISABLES_AFTER_MS = 3 * 24 * 3_600_000;

/** How long one attempt may take (connect, send, answer). */
export const ATTEMPT_TIMEOUT_MS = 10_000;

/** The status that disables a subscription at once: the receiver says it is gone for good. */
export const GONE_STATUS = 410;
