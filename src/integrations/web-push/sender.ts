/**
 * Browser push pages through `web-push` (RFC 8030 delivery, RFC 8291 aes128gcm payload
 * encryption, RFC 8292 VAPID), docs/web-push.md. The endpoint is a URL the browser chose, so it
 * goes through the one SSRF guard: checked as written, and every address it resolves to checked
 * again by the bounded client's lookup before connecting. Its path is a capability (anyone holding it may
 * push to that browser): messages name its host only.
 */
import webpush from 'web-push';
import { checkTargetUrl } from '../../domain/targets';
import { PROVIDER_CALL_TIMEOUT_MS } from '../../domain/paging/attempt-timeouts';
import { OutboundError, outboundClient, type OutboundClient } from '../../services/outbound';
import { describeError, notAcceptedFailure, permanentFailure, rejectedFailure, retryableFailure } from '../failures';
import type { ChannelProvider, ChannelSender, OutgoingPage, SendOptions, SentPage } from '../types';
import { webPushSettings, type VapidKeys, type WebPushConfig } from './config';
import { vapidKeys } from './keys';

export type { WebPushConfig };

/** What the service worker gets (decrypted), docs/web-push.md. */
export interface WebPushPayload {
  incident_id: string | null;
  title: string;
  body: string;
  /** Where a click on the notification goes. */
  url: string;
  /** POST it to /hooks/push/action as `{"token"}` to acknowledge; null on a test push. */
  action_token: string | null;
}

/** A stored push_web address, parsed (the channel registry wrote it as canonical JSON). */
export interface WebPushSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** The push service's answer, sorted into what Klaxon does about it. */
export type WebPushOutcome =
  | { kind: 'delivered'; status: number }
  /** 404 or 410: the subscription is gone for good (unsubscribed, expired); stop paging it. */
  | { kind: 'gone'; status: number; error: string }
  /** Another 4xx, or an endpoint the SSRF guard refuses: retrying the same push cannot help. */
  | { kind: 'rejected'; status: number | null; error: string }
  /** 429 or 5xx: the service answered without taking it; retry later. */
  | { kind: 'not_accepted'; status: number; error: string }
  /** No answer (network, timeout): the service may have taken it. */
  | { kind: 'unknown'; status: null; error: string };

/** A push service answers a few hundred bytes at most; more is never read. */
export const WEB_PUSH_MAX_ANSWER_BYTES = 64 * 1024;

/** A page a day late is noise: a push service keeps it an hour at most. */
export const WEB_PUSH_TTL_SECONDS = 3600;

/**
 * The Topic header of an incident's pushes: a newer push with the same topic replaces an
 * undelivered older one. At most 32 characters of the URL-safe base64 alphabet (RFC 8030 §5.4):
 * the incident's UUID without its dashes is 32 hex characters. Anything else gets no topic.
 */
export function webPushTopic(incidentId: string | null | undefined): string | undefined {
  const hex = incidentId?.replace(/-/g, '').toLowerCase();
  return hex && /^[0-9a-f]{32}$/.test(hex) ? hex : undefined;
}

/** The subscription a push_web contact method stores. */
export function parseSubscription(address: string): WebPushSubscription {
  const parsed = JSON.parse(address) as WebPushSubscription;
  return { endpoint: parsed.endpoint, keys: { p256dh: parsed.keys.p256dh, auth: parsed.keys.auth } };
}

/** The endpoint's host, for messages (never its path: the path is the capability). */
export function endpointHost(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return 'an invalid endpoint';
  }
}

/** The payload of a page: title, body, the incident's URL and its acknowledge token. */
export function pagePayload(page: OutgoingPage, appUrl: string): WebPushPayload {
  const incidentId = page.push?.data.incident_id ?? null;
  return {
    incident_id: incidentId,
    title: page.subject,
    body: page.text,
    url: incidentId ? `${appUrl}/incidents/${incidentId}` : appUrl,
    action_token: page.push?.data.acknowledge_token ?? null,
  };
}

/** One bounded client per sender (keep-alive), trusting Node's CAs plus WEB_PUSH_CA_FILE's: the endpoint is a supplied URL. */
export function webPushClient(config: Pick<WebPushConfig, 'allowPrivate' | 'ca'>, opts: { keepAlive?: boolean } = {}): OutboundClient {
  return outboundClient({
    target: 'supplied',
    allowPrivate: config.allowPrivate,
    ca: config.ca,
    keepAlive: opts.keepAlive,
    deadlineMs: PROVIDER_CALL_TIMEOUT_MS,
    maxBytes: WEB_PUSH_MAX_ANSWER_BYTES,
  });
}

/** Why a request got no answer, never the endpoint's path or keys. */
function noAnswer(err: unknown, secrets: string[]): string {
  const message = err instanceof OutboundError ? err.message : describeError(err);
  let out = message;
  for (const s of secrets) if (s) out = out.split(s).join('[redacted]');
  return out;
}

/** The push service's status sorted into an outcome (docs/web-push.md, "What the push service answers"). */
function outcomeOf(host: string, status: number): WebPushOutcome {
  if (status >= 200 && status < 300) return { kind: 'delivered', status };
  if (status === 404 || status === 410)
    return { kind: 'gone', status, error: `push to ${host} refused: the browser subscription has expired or was unsubscribed (HTTP ${status})` };
  if (status === 429 || status >= 500) return { kind: 'not_accepted', status, error: `push to ${host} not accepted: HTTP ${status}` };
  return {
    kind: 'rejected',
    status,
    error: `push to ${host} refused: HTTP ${status}${status === 403 ? ' (the VAPID key does not match the subscription’s)' : ''}`,
  };
}

/**
 * Sends one encrypted push to a subscription and sorts the answer; never throws for the push
 * service's sake. Urgency high (a page must wake the device), TTL an hour, Topic per incident.
 * `web-push` builds the request (VAPID header, aes128gcm body) and the bounded client sends it:
 * the library's own sender reads an answer without limit. An answer whose head came is sorted by
 * its status even when its body was too long or too slow (the socket is then closed).
 */
export async function deliverWebPush(
  config: WebPushConfig,
  subscription: WebPushSubscription,
  payload: WebPushPayload,
  opts: { client?: OutboundClient; topic?: string; keys?: VapidKeys; signal?: AbortSignal } = {},
): Promise<WebPushOutcome> {
  const host = endpointHost(subscription.endpoint);
  const verdict = checkTargetUrl(subscription.endpoint, { allowPrivate: config.allowPrivate, who: 'web push reaches' });
  if (!verdict.ok) return { kind: 'rejected', status: null, error: `push to ${host} not sent: the endpoint ${verdict.message}` };
  const keys = opts.keys ?? vapidKeys(config);
  const secrets = [subscription.endpoint, new URL(subscription.endpoint).pathname, subscription.keys.auth, subscription.keys.p256dh, keys.privateKey];
  let request: ReturnType<typeof webpush.generateRequestDetails>;
  try {
    request = webpush.generateRequestDetails(subscription, JSON.stringify(payload), {
      vapidDetails: { subject: config.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
      TTL: WEB_PUSH_TTL_SECONDS,
      urgency: 'high',
      contentEncoding: 'aes128gcm',
      ...(opts.topic && { topic: opts.topic }),
    });
  } catch (err) {
    // Keys that pass the address's shape check but are no P-256 point: no push can be made for them.
    return { kind: 'rejected', status: null, error: `push to ${host} not sent: ${noAnswer(err, secrets)}` };
  }
  const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
  const client = opts.client ?? webPushClient(config);
  try {
    const res = await client.request(request.endpoint, { method: request.method, headers, body: request.body ?? undefined, signal: opts.signal });
    return outcomeOf(host, res.status);
  } catch (err) {
    if (err instanceof OutboundError) {
      if (err.kind === 'refused') return { kind: 'rejected', status: null, error: `push to ${host} not sent: ${err.message}` };
      if (err.status !== null) return outcomeOf(host, err.status);
    }
    return { kind: 'unknown', status: null, error: `push to ${host} not sent: ${noAnswer(err, secrets)}` };
  } finally {
    if (!opts.client) client.close();
  }
}

/** The `push_web` sender: one bounded keep-alive client, keys read (or generated) on the first push. */
export function createWebPushSender(config: WebPushConfig): ChannelSender {
  const client = webPushClient(config, { keepAlive: true });
  let keys: VapidKeys | undefined;
  return {
    provider: 'web-push',
    async send(page: OutgoingPage, opts: SendOptions = {}): Promise<SentPage> {
      let subscription: WebPushSubscription;
      try {
        subscription = parseSubscription(page.to);
      } catch {
        throw permanentFailure('web-push', 'the contact method does not hold a browser push subscription');
      }
      const topic = webPushTopic(page.push?.data.incident_id);
      // Read (or generated) once per worker: the pair never changes while it runs.
      keys ??= vapidKeys(config);
      const outcome = await deliverWebPush(config, subscription, pagePayload(page, config.appUrl), { client, topic, keys, signal: opts.signal });
      switch (outcome.kind) {
        case 'delivered':
          return { provider: 'web-push', providerMessageId: null };
        case 'gone':
          // As APNs' Unregistered: the send activity disables the contact method with this reason.
          throw permanentFailure('web-push', outcome.error);
        case 'rejected':
          throw rejectedFailure('web-push', outcome.error);
        case 'not_accepted':
          throw notAcceptedFailure('web-push', outcome.error);
        case 'unknown':
          throw retryableFailure('web-push', outcome.error);
      }
    },
    close: async () => client.close(),
  };
}

/** The registry's `web-push` provider: always configured (its keys exist or are generated). */
export const webPushProvider: ChannelProvider = (notify) => {
  const config = webPushSettings(notify);
  return {
    description: `Web Push, VAPID keys ${config.keys ? 'from WEB_PUSH_VAPID_*' : 'in the data folder'}, subject ${config.subject}`,
    connect: () => ({ push_web: createWebPushSender(config) }),
  };
};
