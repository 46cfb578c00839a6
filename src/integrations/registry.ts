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

/**
 * Loads an integration's folder (its index.ts) when the wiring first needs it. Not an import: a
 * static import would load every SDK and service with this file, and the domain (and through it
 * the dashboard's bundle) imports this file. The path is computed so that bundlers do not follow
 * it either; each call is typed by its folder's module.
 */
function loadFolder<Module>(folder: string): Module {
  return require(`./${folder}`) as Module;
}

export const REGISTRY = {
  twilio: { channels: twilioChannels, load: () => loadFolder<typeof import('./twilio')>('twilio').twilio },
  // A second carrier of twilio's sms and voice channels (their `providers` name it).
  vonage: { load: () => loadFolder<typeof import('./vonage')>('vonage').vonage },
  email: { channels: emailChannels, load: () => loadFolder<typeof import('./email')>('email').email },
  sendgrid: { load: () => loadFolder<typeof import('./sendgrid')>('sendgrid').sendgrid },
  smtp: { load: () => loadFolder<typeof import('./smtp')>('smtp').smtp },
  apns: { channels: apnsChannels, load: () => loadFolder<typeof import('./apns')>('apns').apns },
  fcm: { channels: fcmChannels, load: () => loadFolder<typeof import('./fcm')>('fcm').fcm },
  'web-push': { channels: webPushChannels, load: () => loadFolder<typeof import('./web-push')>('web-push').webPush },
  slack: { channels: slackChannels, load: () => loadFolder<typeof import('./slack')>('slack').slack },
  pushover: { channels: pushoverChannels, load: () => loadFolder<typeof import('./pushover')>('pushover').pushover },
  'outgoing-webhooks': { load: () => loadFolder<typeof import('./outgoing-webhooks')>('outgoing-webhooks').outgoingWebhooks },
  'microsoft-teams': { load: () => loadFolder<typeof import('./microsoft-teams')>('microsoft-teams').microsoftTeams },
  pagerduty: { load: () => loadFolder<typeof import('./pagerduty')>('pagerduty').pagerduty },
  opsgenie: { load: () => loadFolder<typeof import('./opsgenie')>('opsgenie').opsgenie },
  discord: { load: () => loadFolder<typeof import('./discord')>('discord').discord },
  mattermost: { load: () => loadFolder<typeof import('./mattermost')>('mattermost').mattermost },
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
