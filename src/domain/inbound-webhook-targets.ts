/**
 * Whom a webhook's channels reach (the dashboard's `targetChannels`): per channel, an address
 * (an email address, an E.164 number) or a member of the workspace (their user id, reached on
 * their own contact methods). Pure: membership is checked by the caller.
 */
import { CHANNELS, normaliseAddress, type ChannelId } from './channels';
import { escapeMarkup } from './markup';
import { quotaFallbackReason } from './paging/quota';
import type { Plan } from './plans';

/** A channel's target as stored (`alert_sources.target_channels`, keyed by Form B name). */
export type WebhookTarget = { address: string } | { user_id: string };
export type WebhookTargets = Partial<Record<FormBName, WebhookTarget>>;

export type FormBName = 'sms' | 'voice' | 'email' | 'push';

/** The dashboard's keys (its notification types, lower-cased) and the aliases it also accepts. */
const KEYS: Readonly<Record<string, FormBName>> = { email: 'email', sms: 'sms', call: 'voice', voice: 'voice', push_notif: 'push', push: 'push' };

/** A Form B name as the dashboard keys it: `voice` → `call`, `push` → `push_notif`. */
const DASHBOARD_KEY: Readonly<Record<FormBName, string>> = { sms: 'sms', voice: 'call', email: 'email', push: 'push_notif' };

export const TARGET_KEYS = Object.keys(KEYS);
export const MAX_TARGET_LENGTH = 320;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The channel id an address on a Form B channel is sent on (push is only ever a member's devices). */
const ADDRESS_CHANNEL: Readonly<Record<Exclude<FormBName, 'push'>, ChannelId>> = { sms: 'sms', voice: 'voice', email: 'email' };

/** `keys` maps each key as given (`call`) to the channel it names (`voice`). */
export type TargetsResult =
  { ok: true; targets: WebhookTargets; memberIds: string[]; keys: Record<string, FormBName> } | { ok: false; field: string; message: string };

/**
 * Checks the dashboard's `targetChannels` against the webhook's channels (Form B names): each key
 * names one of them, each value is a user id or an address valid for the channel. Errors name
 * the field (`targetChannels.sms`) and never repeat the value.
 */
export function parseTargetChannels(raw: Readonly<Record<string, string>>, channels: readonly string[]): TargetsResult {
  const targets: WebhookTargets = {};
  const memberIds: string[] = [];
  const keys: Record<string, FormBName> = {};
  for (const [key, value] of Object.entries(raw)) {
    const field = `targetChannels.${key}`;
    const name = KEYS[key];
    if (!name)
      return {
        ok: false,
        field,
        message: `unknown channel; use ${Object.keys(DASHBOARD_KEY)
          .map((n) => DASHBOARD_KEY[n as FormBName])
          .join(', ')}`,
      };
    if (!channels.includes(name)) return { ok: false, field, message: `not one of this webhook's notificationTypes` };
    if (targets[name]) return { ok: false, field, message: `names the same channel as another key` };
    keys[key] = name;
    const trimmed = value.trim();
    if (UUID.test(trimmed)) {
      targets[name] = { user_id: trimmed.toLowerCase() };
      memberIds.push(trimmed.toLowerCase());
      continue;
    }
    if (name === 'push') return { ok: false, field, message: 'must be the user id of a member: a push goes to their registered devices' };
    const address = normaliseAddress(ADDRESS_CHANNEL[name], trimmed);
    if (!address.ok) return { ok: false, field, message: `must be a member's user id or an address: ${address.message}` };
    targets[name] = { address: address.address };
  }
  return { ok: true, targets, memberIds, keys };
}

/** The targets as the dashboard shows them: keyed like its form, each an address or a user id. */
export function targetChannelsView(targets: WebhookTargets | null): Record<string, string> {
  const view: Record<string, string> = {};
  for (const [name, t] of Object.entries(targets ?? {}) as Array<[FormBName, WebhookTarget]>)
    view[DASHBOARD_KEY[name]] = 'address' in t ? t.address : t.user_id;
  return view;
}

/**
 * Which of an incident's Form B paging channels each member target takes, by user id, in the
 * order given. Paging sends a targeted channel to its member instead of the owning team; address
 * targets are for test notifications only (an address is nobody's per-user quota), so their
 * channels keep paging the team.
 */
export function memberTargetChannels(targets: WebhookTargets | null, paging: readonly ChannelId[]): Map<string, ChannelId[]> {
  const byUser = new Map<string, ChannelId[]>();
  for (const channel of paging) {
    const name = CHANNELS[channel].formB?.name as FormBName | undefined;
    const target = name && targets?.[name];
    if (target && 'user_id' in target) byUser.set(target.user_id, [...(byUser.get(target.user_id) ?? []), channel]);
  }
  return byUser;
}

/** The channel ids a Form B name may be sent on: push is either platform. */
export function channelIdsOf(name: FormBName): ChannelId[] {
  return name === 'push' ? ['push_ios', 'push_android'] : [ADDRESS_CHANNEL[name]];
}

/**
 * Where a test notification on a channel goes under a plan: as asked, or by email with the
 * plan's reason (FREE pages by email only; a plan without voice calls sends them by email). A
 * test does not count against a monthly quota: only a plan that includes none of a channel
 * turns it into email.
 */
export function testRoute(plan: Plan, channel: ChannelId): { channel: ChannelId; fallbackReason: string | null } {
  const reason = quotaFallbackReason(plan, channel, 0);
  return reason ? { channel: 'email', fallbackReason: reason } : { channel, fallbackReason: null };
}

/** The test notification's words on every channel: it says it is a test, and of which webhook. */
export function testMessage(webhookName: string): { subject: string; text: string; html: string; voiceTwiml: string } {
  const subject = `[Klaxon] Test notification from webhook “${webhookName.slice(0, 120)}”`;
  const text = `${subject}. This is a test: nothing is wrong, and there is nothing to acknowledge.`;
  return {
    subject,
    text,
    html: `<p>${escapeMarkup(text)}</p>`,
    voiceTwiml: `<?xml version="1.0" encoding="UTF-8"?><Response><Say>${escapeMarkup(`Klaxon test call from webhook ${webhookName.slice(0, 120)}. This is a test. Nothing is wrong. Goodbye.`)}</Say></Response>`,
  };
}

/** What a channel is called in a test's answer and in errors. */
export const channelLabel = (channel: ChannelId): string => CHANNELS[channel].label;
