/**
 * The paging channels (docs/architecture.md, "Paging"), as the integrations that own them declare
 * them (src/integrations/<name>/channel.ts, listed in src/integrations/registry.ts): what
 * people call each, what its addresses look like, how Form B sources name it, the plan quota it
 * counts against and which registry entries send it. Entities, validation, escalation planning,
 * the timeline and the senders all read this table. Pure: the registry loads no module with it,
 * and the declarations import only pure modules, never a sender.
 */
import { CHANNEL_TABLE } from '../integrations/registry';
import type { ChannelDeclaration } from '../integrations/channel';

export { EMAIL_PATTERN, MAX_DEVICE_TOKEN_LENGTH, MAX_WEB_PUSH_ENDPOINT_LENGTH, type AddressResult } from './addresses';
export type { MonthlyPageLimit } from '../integrations/channel';

/** Everything Klaxon knows about one channel: its integration's declaration. */
export type ChannelSpec<Provider extends string = string> = ChannelDeclaration<Provider>;

/** A paging channel: also the type of a contact method. */
export type ChannelId = keyof typeof CHANNEL_TABLE;

/** A registry entry that sends some channel (src/integrations/registry.ts maps it to its folder). */
export type ProviderKey = (typeof CHANNEL_TABLE)[ChannelId]['providers'][number];

/** The provider key of the dev inbox, where a channel without provider credentials keeps its pages. */
export const DEV_INBOX = 'dev_inbox';

/** The table, by channel id. */
export const CHANNELS: Readonly<Record<ChannelId, ChannelSpec<ProviderKey>>> = CHANNEL_TABLE;

/** Every channel id, in the order people see them listed. */
export const CHANNEL_IDS = Object.freeze(Object.keys(CHANNEL_TABLE) as ChannelId[]);

/** Whether a stored or typed string names a channel. */
export function isChannelId(value: string): value is ChannelId {
  return Object.hasOwn(CHANNEL_TABLE, value);
}

/** Checks and normalises an address for its channel; messages never repeat a device token. */
export function normaliseAddress(channel: ChannelId, raw: string): import('./addresses').AddressResult {
  return CHANNELS[channel].normalise(raw.trim(), channel);
}

/**
 * An address as people read it (timeline, trace, skipped-contact notes): the channel's own
 * display when it declares one (a web push subscription shows only its push service's host).
 */
export function displayAddress(channel: string, address: string): string {
  const display = isChannelId(channel) ? CHANNELS[channel].display : undefined;
  return display ? display(address) : address;
}

/** Channels a drill sends: those whose integration renders a drill page. */
export const DRILLABLE_CHANNEL_IDS = Object.freeze(CHANNEL_IDS.filter((id) => CHANNELS[id].renderDrill));

/** Channels that take a test send (`POST /api/contact-methods/{id}/test`). */
export const TESTABLE_CHANNEL_IDS = Object.freeze(CHANNEL_IDS.filter((id) => CHANNELS[id].renderTest));
