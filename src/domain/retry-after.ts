/**
 * A receiver's `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date. A rate-limited
 * receiver (Discord's 429, Slack's, a webhook behind a gateway) says when it will take the next
 * request; retrying sooner only earns another 429.
 */

/** The longest wait a Retry-After may ask of the delivery queue: beyond it, the schedule decides. */
export const MAX_RETRY_AFTER_MS = 3_600_000;

/** An HTTP-date as senders write it (`Sun, 29 Nov 2026 03:01:30 GMT`); anything else is not a date here. */
const IMF_FIXDATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** Milliseconds to wait, or null when the header is absent or says nothing usable; never negative, at most MAX_RETRY_AFTER_MS. */
export function retryAfterMs(header: string | readonly string[] | undefined, now: Date): number | null {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value || value.length > 64) return null;
  const ms = /^\d+(\.\d+)?$/.test(value) ? Number(value) * 1000 : IMF_FIXDATE.test(value) ? Date.parse(value) - now.getTime() : NaN;
  if (!Number.isFinite(ms)) return null;
  return Math.min(Math.max(0, Math.ceil(ms)), MAX_RETRY_AFTER_MS);
}
