/**
 * The registry (docs/architecture.md, "Integrations"): one entry per integration folder, in the
 * order people see their channels. An entry names the paging channels its folder owns (its pure
 * `channel.ts`) and loads the rest of the module (senders, hooks, consumers, SDKs) only when the
 * wiring first asks for it (src/integrations/wiring.ts). That is what lets this file be pure:
 * src/domain/channels.ts builds the channel table from it without reaching a sender, and adding
 * an integration is its folder plus its line here.
 */
import type { ChannelDeclaration } from './channel';
import type { ProviderModule } from './types';
import { twilioChannels } from './twilio/channel';
import { emailChannels } from './email/channel';
import { apnsChannels } from './apns/channel';
import { fcmChannels } from './fcm/channel';
import { webPushChannels } from './web-push/channel';
import { slackChannels } from './slack/dm-channel';
import { pushoverChannels } from './pushover/channel';

/** A registry entry: the channels its folder declares, and how to load its module. */
interface RegistryEntry {
  channels?: Readonly<Record<string, ChannelDeclaration>>;
  load(): ProviderModule;
}

/*
 * `require` inside `load`, not an import: a static import would load every SDK and service with
 * this file, and the domain imports this file. Each call is typed by its folder's module.
 */
export const REGISTRY = {
  twilio: { channels: twilioChannels, load: () => (require('./twilio') as typeof import('./twilio')).twilio },
  email: { channels: emailChannels, load: () => ({}) },
  sendgrid: { load: () => (require('./sendgrid') as typeof import('./sendgrid')).sendgrid },
  smtp: { load: () => (require('./smtp') as typeof import('./smtp')).smtp },
  apns: { channels: apnsChannels, load: () => (require('./apns') as typeof import('./apns')).apns },
  fcm: { channels: fcmChannels, load: () => (require('./fcm') as typeof import('./fcm')).fcm },
  'web-push': { channels: webPushChannels, load: () => (require('./web-push') as typeof import('./web-push')).webPush },
  slack: { channels: slackChannels, load: () => (require('./slack') as typeof import('./slack')).slack },
  pushover: { channels: pushoverChannels, load: () => (require('./pushover') as typeof import('./pushover')).pushover },
  'outgoing-webhooks': { load: () => (require('./outgoing-webhooks') as typeof import('./outgoing-webhooks')).outgoingWebhooks },
  'microsoft-teams': { load: () => (require('./microsoft-teams') as typeof import('./microsoft-teams')).microsoftTeams },
  pagerduty: { load: () => (require('./pagerduty') as typeof import('./pagerduty')).pagerduty },
  opsgenie: { load: () => (require('./opsgenie') as typeof import('./opsgenie')).opsgenie },
  discord: { load: () => (require('./discord') as typeof import('./discord')).discord },
  mattermost: { load: () => (require('./mattermost') as typeof import('./mattermost')).mattermost },
} as const satisfies Record<string, RegistryEntry>;

/** An integration's registry key (`twilio`, `microsoft-teams`). */
export type IntegrationKey = keyof typeof REGISTRY;

type Entries = (typeof REGISTRY)[IntegrationKey];
type ChannelsOf<E> = E extends { channels: infer C } ? C : never;
type Merged<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/** Every channel every entry declares, by id, in registry order: what src/domain/channels.ts reads. */
export const CHANNEL_TABLE = Object.freeze(Object.assign({}, ...Object.values(REGISTRY).map((entry: RegistryEntry) => entry.channels ?? {}))) as Readonly<
  Merged<ChannelsOf<Entries>>
>;
