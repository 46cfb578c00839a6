/** The channel registry: per channel, the configured provider or else the dev inbox. */
import type { MikroORM } from '@mikro-orm/postgresql';
import type { NotifyConfig } from '../../src/config';
import { CHANNEL_IDS, type ChannelId } from '../../src/domain/channels';
import { createApnsSender } from './apns';
import { createDevInboxSender } from './dev-inbox';
import { createFcmSender } from './fcm';
import { createSendgridSender } from './sendgrid';
import { createSmtpSender } from './smtp';
import { createTwilioSenders } from './twilio';
import type { ChannelSender } from './types';

/** Who delivers a channel. */
export type ProviderName = 'twilio' | 'sendgrid' | 'smtp' | 'apns' | 'fcm' | 'dev_inbox';

/** Per channel, the provider its configuration selects (SMTP_URL wins over SendGrid for email). */
export function channelProviders(notify: NotifyConfig): Record<ChannelId, ProviderName> {
  return {
    sms: notify.twilio ? 'twilio' : 'dev_inbox',
    voice: notify.twilio ? 'twilio' : 'dev_inbox',
    email: notify.email.smtpUrl ? 'smtp' : notify.email.sendgrid ? 'sendgrid' : 'dev_inbox',
    push_ios: notify.apns ? 'apns' : 'dev_inbox',
    push_android: notify.fcm ? 'fcm' : 'dev_inbox',
  };
}

/** One sender per channel: the real provider when its credentials are configured, else the dev inbox. */
export function createChannelSenders(notify: NotifyConfig, { orm }: { orm: MikroORM }): Record<ChannelId, ChannelSender> {
  const providers = channelProviders(notify);
  const twilio = notify.twilio && createTwilioSenders(notify.twilio);
  const real: Record<ChannelId, () => ChannelSender | undefined> = {
    sms: () => twilio?.sms,
    voice: () => twilio?.voice,
    email: () =>
      providers.email === 'smtp' ? createSmtpSender({ url: notify.email.smtpUrl!, from: notify.email.from })
      : notify.email.sendgrid && createSendgridSender({ ...notify.email.sendgrid, from: notify.email.from }),
    push_ios: () => notify.apns && createApnsSender(notify.apns),
    push_android: () => notify.fcm && createFcmSender(notify.fcm),
  };
  const entries = CHANNEL_IDS.map((channel) => [channel, real[channel]() ?? createDevInboxSender(orm, channel)] as const);
  return Object.fromEntries(entries) as Record<ChannelId, ChannelSender>;
}

/** Closes every sender that holds connections (APNs session, SMTP sockets); for worker shutdown. */
export async function closeChannelSenders(senders: Record<ChannelId, ChannelSender>): Promise<void> {
  await Promise.all([...new Set(Object.values(senders))].map((s) => s.close?.()));
}

const LABELS: Record<ChannelId, string> = { sms: 'SMS', voice: 'voice', email: 'email', push_ios: 'iOS push', push_android: 'Android' };
const MISSING: Record<ChannelId, string> = {
  sms: 'TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM_NUMBER',
  voice: 'TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM_NUMBER',
  email: 'SENDGRID_API_KEY or SMTP_URL',
  push_ios: 'APNS_KEY, APNS_KEY_ID, APNS_TEAM_ID, APNS_TOPIC',
  push_android: 'FCM_SERVICE_ACCOUNT',
};

/** An SMTP URL without its credentials. */
const relayOf = (url: string) => {
  const u = new URL(url);
  return `${u.protocol}//${u.host}`;
};

/** Startup banner lines: per channel, the provider it goes to, or the dev inbox and what would enable it. */
export function describeChannels(notify: NotifyConfig): string[] {
  const providers = channelProviders(notify);
  const where = (channel: ChannelId): string => {
    const via = (url: string | undefined) => (url ? ` via ${url}` : '');
    switch (providers[channel]) {
      case 'twilio':
        return `Twilio, from ${notify.twilio!.fromNumber}${via(notify.twilio!.apiBaseUrl)}`;
      case 'smtp':
        return `SMTP relay ${relayOf(notify.email.smtpUrl!)}, from ${notify.email.from}`;
      case 'sendgrid':
        return `SendGrid, from ${notify.email.from}${via(notify.email.sendgrid!.apiBaseUrl)}`;
      case 'apns': {
        const a = notify.apns!;
        return `APNs ${a.production ? 'production' : 'sandbox'}, topic ${a.topic}${a.host ? ` via ${a.host}:${a.port}` : ''}`;
      }
      case 'fcm':
        return `FCM, project ${notify.fcm!.projectId}${notify.fcm!.baseUrl === 'https://fcm.googleapis.com' ? '' : ` via ${notify.fcm!.baseUrl}`}`;
      default:
        return `dev inbox (set ${MISSING[channel]} to send for real; see \`klaxon inbox list\`)`;
    }
  };
  return CHANNEL_IDS.map((channel) => `${`Paging ${LABELS[channel]}`.padEnd(17)}${where(channel)}`);
}
