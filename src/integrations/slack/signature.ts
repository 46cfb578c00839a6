/**
 * Slack's request signature (docs/chat.md, "Acting from Slack"), pure: `X-Slack-Signature` is
 * `v0=` + hex HMAC-SHA256(signing secret, `v0:{X-Slack-Request-Timestamp}:{raw body}`), and a
 * timestamp more than five minutes from now is refused (a replayed request).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a request's timestamp may be from our clock. */
export const SLACK_SIGNATURE_MAX_AGE_SECONDS = 300;

export interface SlackSignedRequest {
  /** `X-Slack-Request-Timestamp`: Unix seconds as text. */
  timestamp: string | undefined;
  /** `X-Slack-Signature`. */
  signature: string | undefined;
  /** The body exactly as received. */
  rawBody: string;
}

/** The signature Slack would send for a body at a timestamp (tests sign with it too). */
export function slackSignature(signingSecret: string, timestamp: string, rawBody: string): string {
  return `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${rawBody}`).digest('hex')}`;
}

/** True only for a request signed with this secret within five minutes of `nowSeconds`. */
export function verifySlackSignature(signingSecret: string, req: SlackSignedRequest, nowSeconds: number): boolean {
  const { timestamp, signature } = req;
  if (!timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > SLACK_SIGNATURE_MAX_AGE_SECONDS) return false;
  const expected = Buffer.from(slackSignature(signingSecret, timestamp, req.rawBody), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
