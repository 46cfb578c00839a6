import { Webhook } from 'standardwebhooks';

/**
 * The Standard Webhooks headers of one attempt (docs/integrations.md), signed by the scheme's own
 * library: `webhook-id` is the event's id (stable across retries and redeliveries),
 * `webhook-timestamp` the attempt's time in seconds, `webhook-signature` `v1,<base64 HMAC>`.
 */
export function signedHeaders(secret: string, eventId: string, body: string, at: Date): Record<string, string> {
  const timestamp = new Date(Math.floor(at.getTime() / 1000) * 1000);
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp.getTime() / 1000),
    'webhook-signature': new Webhook(secret).sign(eventId, timestamp, body),
  };
}
