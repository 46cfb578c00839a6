/**
 * The registry (docs/architecture.md, "Integrations"): one entry per integration folder, in the
 * order people see their channels. An entry names the paging channels its folder owns (its pure
 * `channel.ts`) and loads the rest of the module (senders, hooks, consumers, SDKs) only when the
 * wiring first asks for it (src/integrations/wiring.ts). That is what lets this file be pure:
 * src/domain/channels.ts builds the channel table from it without reaching a sender, and adding
 * an integration is its folder plus its line here.
 */
import type { ChannelDeclaration } from './channel';
import { twilioChannels } from './twilio/channel';
import { emailChannels } from './email/channel';
import { apnsChannels } from './apns/channel';
import { fcmChannels } from './fcm/channel';
import { webPushChannels } from './web-push/channel';
import { slackChannels } from './slack/dm-channel';
import { pushoverChannels } from './pushover/channel';

/**
 * A registry entry: the channels its folder declares, and how to load its module (a
 * `ProviderModule`, src/integrations/types.ts, as the wiring reads it: named here only as an
 * object, so this pure file imports no contract that reaches the services).
 */
interface RegistryEntry {
  channels?: Readonly<Record<string, ChannelDeclaration>>;
  load(): object;
}

/**
 * Loads an integration's folder (its index.ts) and the module it exports, when the wiring first
 * needs it. Not an import: a static import would load every SDK and service with this file, and
 * the domain (and through it the dashboard's bundle) imports this file. The path is computed so
 * that bundlers do not follow it either, and no type names the folder, so import graphs (madge)
 * see no edge from here into it. Each folder's module is checked against ProviderModule where it
 * is declared (`satisfies ProviderModule` in its index.ts).
 */
function loadFolder(folder: string, exported: string): object {
  const module = (require(`./${folder}`) as Record<string, object | undefined>)[exported];
  if (!module) throw new Error(`src/integrations/${folder} exports no ${exported}, though the registry names it`);
  return module;
}

export const REGISTRY = {
  twilio: { channels: twilioChannels, load: () => loadFolder('twilio', 'twilio') },
  // A second carrier of twilio's sms and voice channels (their `providers` name it).
  vonage: { load: () => loadFolder('vonage', 'vonage') },
  email: { channels: emailChannels, load: () => loadFolder('email', 'email') },
  sendgrid: { load: () => loadFolder('sendgrid', 'sendgrid') },
  smtp: { load: () => loadFolder('smtp', 'smtp') },
  apns: { channels: apnsChannels, load: () => loadFolder('apns', 'apns') },
  fcm: { channels: fcmChannels, load: () => loadFolder('fcm', 'fcm') },
  'web-push': { channels: webPushChannels, load: () => loadFolder('web-push', 'webPush') },
  slack: { channels: slackChannels, load: () => loadFolder('slack', 'slack') },
  pushover: { channels: pushoverChannels, load: () => loadFolder('pushover', 'pushover') },
  'outgoing-webhooks': { load: () => loadFolder('outgoing-webhooks', 'outgoingWebhooks') },
  'microsoft-teams': { load: () => loadFolder('microsoft-teams', 'microsoftTeams') },
  pagerduty: { load: () => loadFolder('pagerduty', 'pagerduty') },
  opsgenie: { load: () => loadFolder('opsgenie', 'opsgenie') },
  discord: { load: () => loadFolder('discord', 'discord') },
  mattermost: { load: () => loadFolder('mattermost', 'mattermost') },
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
