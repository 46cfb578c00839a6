/** iOS push pages through `@parse/node-apn` (HTTP/2, token auth), docs/architecture.md, "Integrations". */
import { Notification, Provider, type ResponseFailure } from '@parse/node-apn';
import { apnsSettings, type ApnsConfig } from './config';
import { PROVIDER_CALL_TIMEOUT_MS } from '../../domain/paging/attempt-timeouts';
import { describeError, notAcceptedFailure, permanentFailure, retryableFailure } from '../failures';
import type { ChannelProvider, ChannelSender, OutgoingPage, SentPage } from '../types';

export type { ApnsConfig };

/** APNs reasons that mean this device token will never work for this app: stop paging it. */
const PERMANENT_REASONS = new Set(['Unregistered', 'BadDeviceToken', 'DeviceTokenNotForTopic', 'ExpiredToken']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An APNs provider with a signed provider token; APNS_HOST/APNS_PORT/APNS_CA_FILE point it elsewhere. */
export function createApnsProvider(config: ApnsConfig): Provider {
  return new Provider({
    token: { key: config.key, keyId: config.keyId, teamId: config.teamId },
    production: config.production,
    ...(config.host && { address: config.host }),
    port: config.port,
    ...(config.ca && { ca: [config.ca] }),
    requestTimeout: PROVIDER_CALL_TIMEOUT_MS,
  });
}

/** The notification as the app receives it: alert title/body, action category, our data. */
function toNotification(page: OutgoingPage, topic: string): Notification {
  const note = new Notification();
  note.topic = topic;
  note.pushType = 'alert';
  note.priority = 10;
  // A page that arrives an hour late is noise: APNs may drop it after that.
  note.expiry = Math.floor(Date.now() / 1000) + 3600;
  note.alert = { title: page.subject, body: page.text };
  note.sound = 'default';
  if (page.push) note.aps.category = page.push.category;
  note.payload = { ...page.push?.data, notification_id: page.notificationId };
  if (UUID.test(page.notificationId)) note.id = page.notificationId;
  return note;
}

/** A device token shortened for messages: enough to recognise, not the whole address. */
const shortToken = (token: string) => (token.length > 12 ? `${token.slice(0, 8)}…` : token);

/** The `push_ios` sender over one HTTP/2 session to APNs. */
export function createApnsSender(config: ApnsConfig, provider: Provider = createApnsProvider(config)): ChannelSender {
  const secrets = [config.key];
  return {
    provider: 'apns',
    async send(page: OutgoingPage): Promise<SentPage> {
      const note = toNotification(page, config.topic);
      let result: Awaited<ReturnType<Provider['send']>>;
      try {
        result = await provider.send(note, page.to);
      } catch (err) {
        throw retryableFailure('apns', `push not sent: ${describeError(err)}`, secrets);
      }
      const [sent] = result.sent as Array<{ 'apns-id'?: string }>;
      if (sent) return { provider: 'apns', providerMessageId: sent['apns-id'] ?? (note.id || null) };
      throw toDeliveryError(page, result.failed[0], secrets);
    },
    close: () => provider.shutdown(),
  };
}

/** The registry's `apns` provider: iOS push once APNS_KEY, APNS_KEY_ID, APNS_TEAM_ID and APNS_TOPIC are set. */
export const apnsProvider: ChannelProvider = (notify) => {
  const config = apnsSettings(notify);
  return (
    config && {
      description: `APNs ${config.production ? 'production' : 'sandbox'}, topic ${config.topic}${config.host ? ` via ${config.host}:${config.port}` : ''}`,
      connect: () => ({ push_ios: createApnsSender(config) }),
    }
  );
};

function toDeliveryError(page: OutgoingPage, failure: ResponseFailure | undefined, secrets: string[]): Error {
  const reason = failure?.response?.reason;
  const status = failure?.status;
  if (status === 410 || (reason && PERMANENT_REASONS.has(reason))) {
    return permanentFailure('apns', `push to device ${shortToken(page.to)} refused: ${reason ?? 'Unregistered'} (HTTP ${status})`, secrets);
  }
  if (status)
    return notAcceptedFailure(
      'apns',
      `push not accepted: HTTP ${status}${reason ? ` ${reason}` : ''}${failure?.error ? `: ${describeError(failure.error)}` : ''}`,
      secrets,
    );
  return retryableFailure('apns', `push not sent: ${failure?.error ? describeError(failure.error) : 'no response'}`, secrets);
}
