import { CHANNEL_IDS, CHANNELS, type ChannelId } from '../../../src/domain/channels';
import { formatDuration } from './policy-form';

/**
 * Contact methods and notification rules as people read them (the profile page): what each
 * type's address is called, a method's state, a rule's timing. Pure.
 */

/** Web Push to a browser (the profile's "Push on this device"): its address is the browser's subscription. */
export const WEB_PUSH = 'push_web' satisfies ChannelId;
/** A contact method's type: a paging channel (Web Push is listed apart from the others, added from the device itself). */
export type ContactType = ChannelId;
export const isWebPush = (m: { type: string }) => m.type === WEB_PUSH;

/** A contact method as `/api/contact-methods` answers it. */
export interface ContactMethod {
  id: string;
  user_id: string;
  type: ContactType;
  /** A phone number, an email address, a device token; a Web Push subscription (its endpoint, or its JSON). */
  address: string;
  label: string | null;
  disabled_at: string | null;
  disabled_reason: string | null;
  verified_at: string | null;
  /** `import`: brought in from PagerDuty or Opsgenie; null: made in Klaxon. */
  source?: 'import' | null;
  created_at: string;
}
/** A notification rule as `/api/notification-rules` answers it. */
export interface NotificationRule {
  id: string;
  user_id: string;
  contact_method_id: string;
  delay_seconds: number;
}

/** The profile page's queries: my contact methods, my rules. */
export const CONTACTS = ['contact-methods'];
export const RULES = ['notification-rules'];

/** A rule may fire at most an hour after the page (the server's limit, in minutes). */
export const MAX_RULE_DELAY_MINUTES = 60;

/**
 * The types the "Add a contact method" form offers: a Slack DM comes from linking Slack
 * (POST /api/me/slack/link) and Web Push from the device (it needs the browser's subscription).
 */
export const CONTACT_TYPE_OPTIONS = CHANNEL_IDS.filter((id) => id !== 'slack' && id !== WEB_PUSH).map((id) => ({ value: id, label: CHANNELS[id].label }));

/** Phone numbers are verified with a texted code; other types are verified at once. */
export const isPhone = (type: ChannelId) => type === 'sms' || type === 'voice';

/** What the address field is called for a type. */
export function addressLabel(type: ChannelId): string {
  if (isPhone(type)) return 'Phone number';
  return type === 'email' ? 'Email address' : 'Device token';
}

/** What the address field suggests typing. */
export function addressHint(type: ChannelId): string {
  if (isPhone(type)) return 'With the country code, e.g. +1 415 555 0100';
  return type === 'email' ? 'e.g. you@example.com' : 'The token the Klaxon app shows on your device';
}

/** An address as shown: a device token is close to a credential, so only its start. */
export const shownAddress = (m: Pick<ContactMethod, 'type' | 'address'>) =>
  m.type.startsWith('push') && m.address.length > 12 ? `${m.address.slice(0, 8)}…` : m.address;

/**
 * "SMS +14155550100 (work phone)": a method in one line, as its row and its rules name it. A
 * Web Push subscription is a long URL and keys: named by its device, "Web push · Chrome on Android".
 */
export const describeMethod = (m: Pick<ContactMethod, 'type' | 'address' | 'label'>) =>
  isWebPush(m)
    ? `Web push · ${m.label || 'a browser'}`
    : `${CHANNELS[m.type as ChannelId]?.label ?? m.type} ${shownAddress(m)}${m.label ? ` (${m.label})` : ''}`;

export type MethodState = 'verified' | 'unverified' | 'disabled';

/** Whether Klaxon can page on it: a provider may disable an address; a phone waits for its code. */
export function methodState(m: Pick<ContactMethod, 'verified_at' | 'disabled_at'>): MethodState {
  if (m.disabled_at) return 'disabled';
  return m.verified_at ? 'verified' : 'unverified';
}

/** "At once" or "After 2 min": when a rule fires after the page starts. */
export const ruleTiming = (delaySeconds: number) => (delaySeconds === 0 ? 'At once' : `After ${formatDuration(delaySeconds)}`);
