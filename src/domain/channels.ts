/**
 * The paging channels, each declared once (docs/architecture.md, "Paging"): what people call it, what its
 * addresses look like, how a page on it is rendered, how Form B sources name it, the plan quota
 * it counts against and which providers send it. Entities, validation, escalation planning, the
 * timeline and the senders all read this table. Pure and import-free (type imports only), so
 * workflows may use it too.
 *
 * Adding a channel: one entry here, plus its sender in a provider folder of src/integrations/.
 */
import type { PlanLimits } from './plans';
import type { Severity } from './severity';

/** An address checked for its channel: normalised, or a message that never repeats it. */
export type AddressResult = { ok: true; address: string } | { ok: false; message: string };

/** FCM registration tokens are opaque and have grown over the years; APNs tokens are 64 hex. */
export const MAX_DEVICE_TOKEN_LENGTH = 4096;

/**
 * zod 4's `z.email()` pattern, copied so this module imports nothing at run time;
 * test/unit/channels.test.ts fails if zod's ever differs.
 */
export const EMAIL_PATTERN = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

/** An E.164 number: people paste numbers formatted for reading, providers want them bare. */
function phoneNumber(value: string, channel: string): AddressResult {
  const number = value.replace(/[\s().-]/g, '');
  return /^\+[1-9]\d{7,14}$/.test(number)
    ? { ok: true, address: number }
    : { ok: false, message: `must be a phone number in E.164 form for ${channel}: + and 8 to 15 digits, e.g. +14155550100` };
}

/** An email address, lower-cased so one mailbox is one contact. */
function emailAddress(value: string): AddressResult {
  const email = value.toLowerCase();
  return EMAIL_PATTERN.test(email) ? { ok: true, address: email } : { ok: false, message: 'must be an email address for email' };
}

/** A push device token: opaque visible characters. A token is close to a credential, so messages never echo it. */
function deviceToken(value: string, channel: string): AddressResult {
  if (!/^[\x21-\x7e]+$/.test(value) || value.length > MAX_DEVICE_TOKEN_LENGTH) {
    return { ok: false, message: `must be a device token for ${channel}: 1 to ${MAX_DEVICE_TOKEN_LENGTH} visible characters, no spaces` };
  }
  return { ok: true, address: value };
}

/** An APNs device token: hex in any case, stored lower-case so duplicates stay detectable. */
function apnsDeviceToken(value: string, channel: string): AddressResult {
  const token = deviceToken(value, channel);
  return token.ok && /^[0-9a-f]+$/i.test(token.address) ? { ok: true, address: token.address.toLowerCase() } : token;
}

/** A Slack member id (`U…`, or `W…` on Enterprise Grid): what a Slack DM is addressed to. */
function slackUserId(value: string): AddressResult {
  return /^[UW][A-Z0-9]{2,30}$/.test(value)
    ? { ok: true, address: value }
    : { ok: false, message: 'must be a Slack member id for slack (U followed by letters and digits)' };
}

/** A Web Push subscription's endpoint is a URL of the browser's push service; its longest accepted length. */
export const MAX_WEB_PUSH_ENDPOINT_LENGTH = 2048;

/** A base64url value without its `=` padding (a loop: `/=+$/` is quadratic on a run of `=`). */
function unpad(value: string): string {
  let end = value.length;
  while (end > 0 && value[end - 1] === '=') end--;
  return value.slice(0, end);
}

/**
 * A browser's PushSubscription (`{"endpoint","keys":{"p256dh","auth"}}`, as JSON text), stored as
 * canonical JSON of those three fields only. p256dh is an uncompressed P-256 point (65 bytes, 87
 * base64url characters), auth 16 bytes (22). The keys are close to a credential: messages never echo them.
 */
function webPushSubscription(value: string, channel: string): AddressResult {
  const refuse = (why: string): AddressResult => ({
    ok: false,
    message: `must be a browser push subscription for ${channel}, {"endpoint","keys":{"p256dh","auth"}}: ${why}`,
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return refuse('not JSON');
  }
  const sub = (parsed ?? {}) as { endpoint?: unknown; keys?: { p256dh?: unknown; auth?: unknown } | null };
  const { endpoint } = sub;
  if (typeof endpoint !== 'string' || !/^https:\/\/[^\s/?#]\S*$/i.test(endpoint) || endpoint.length > MAX_WEB_PUSH_ENDPOINT_LENGTH) {
    return refuse(`endpoint must be an https:// URL of at most ${MAX_WEB_PUSH_ENDPOINT_LENGTH} characters`);
  }
  const { p256dh, auth } = sub.keys ?? {};
  if (typeof p256dh !== 'string' || !/^[A-Za-z0-9_-]{80,100}={0,2}$/.test(p256dh)) return refuse('keys.p256dh must be 80 to 100 base64url characters');
  if (typeof auth !== 'string' || !/^[A-Za-z0-9_-]{16,32}={0,2}$/.test(auth)) return refuse('keys.auth must be 16 to 32 base64url characters');
  return { ok: true, address: JSON.stringify({ endpoint, keys: { p256dh: unpad(p256dh), auth: unpad(auth) } }) };
}

/** A plan limit that counts pages per user per calendar month (UTC). */
export type MonthlyPageLimit = Extract<keyof PlanLimits, `${string}PerUserPerMonth`>;

/** How a page is rendered for a channel (activities/paging/render.ts). */
export type PageFormat =
  /** A short text carrying the incident's reply code (`4A` acknowledges). */
  | 'text'
  /** A spoken call that gathers a keypress. */
  | 'call'
  /** Plain text and HTML with signed acknowledge/resolve links. */
  | 'email'
  /** A title and body with signed action tokens for the app's buttons. */
  | 'push'
  /** A chat message with the incident and its buttons (Slack Block Kit). */
  | 'chat';

/** Everything Klaxon knows about one channel. */
export interface ChannelSpec<Provider extends string = string> {
  /** What the timeline calls a page on it: "Voice call to ann@example.test (+1…) sent". */
  label: string;
  /** Its name on the startup banner's "Paging …" line. */
  bannerLabel: string;
  /** Checks and normalises a trimmed address; `channel` is this channel's id, for messages. */
  normalise: (value: string, channel: string) => AddressResult;
  format: PageFormat;
  /**
   * How a Form B source lists it (`name`, or an alias the dashboard uses) and the lowest
   * severity it pages for by default; null when Form B never pages it.
   */
  formB: { name: string; aliases: readonly string[]; minSeverity: Severity } | null;
  /** The plan limit its pages count against, and what the fallback reason calls them; null when unlimited. */
  quota: { limit: MonthlyPageLimit; pages: string } | null;
  /** Provider keys that can send it, first configured wins; with none configured, the dev inbox keeps its pages. */
  providers: readonly Provider[];
  /** The environment variables that would give it a real provider, as the startup banner names them. */
  credentials: string;
}

/*
 * Form B's default channels follow the spec's table: critical → SMS, voice, email; warning → SMS,
 * email; info → email. Our five-level scale maps high and medium to warning, low and info to info.
 * Push is not in the table: a source that lists it always pushes (the quietest page there is).
 */
const REGISTRY = {
  sms: {
    label: 'SMS',
    bannerLabel: 'SMS',
    normalise: phoneNumber,
    format: 'text',
    formB: { name: 'sms', aliases: [], minSeverity: 'MEDIUM' },
    quota: { limit: 'smsPerUserPerMonth', pages: 'SMS' },
    providers: ['twilio'],
    credentials: 'TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM_NUMBER',
  },
  voice: {
    label: 'Voice call',
    bannerLabel: 'voice',
    normalise: phoneNumber,
    format: 'call',
    formB: { name: 'voice', aliases: ['call'], minSeverity: 'CRITICAL' },
    quota: { limit: 'voicePerUserPerMonth', pages: 'voice call' },
    providers: ['twilio'],
    credentials: 'TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM_NUMBER',
  },
  email: {
    label: 'Email',
    bannerLabel: 'email',
    normalise: emailAddress,
    format: 'email',
    formB: { name: 'email', aliases: [], minSeverity: 'INFO' },
    quota: null,
    providers: ['smtp', 'sendgrid'],
    credentials: 'SENDGRID_API_KEY or SMTP_URL',
  },
  push_ios: {
    label: 'iOS push',
    bannerLabel: 'iOS push',
    normalise: apnsDeviceToken,
    format: 'push',
    formB: { name: 'push', aliases: ['push_notif'], minSeverity: 'INFO' },
    quota: null,
    providers: ['apns'],
    credentials: 'APNS_KEY, APNS_KEY_ID, APNS_TEAM_ID, APNS_TOPIC',
  },
  push_android: {
    label: 'Android push',
    bannerLabel: 'Android',
    normalise: deviceToken,
    format: 'push',
    formB: { name: 'push', aliases: ['push_notif'], minSeverity: 'INFO' },
    quota: null,
    providers: ['fcm'],
    credentials: 'FCM_SERVICE_ACCOUNT',
  },
  push_web: {
    label: 'Web push',
    bannerLabel: 'web push',
    normalise: webPushSubscription,
    format: 'push',
    formB: { name: 'push', aliases: ['push_notif'], minSeverity: 'INFO' },
    quota: null,
    providers: ['web-push'],
    credentials: 'WEB_PUSH_VAPID_PUBLIC_KEY, WEB_PUSH_VAPID_PRIVATE_KEY (optional: generated into the data folder)',
  },
  // A DM from the workspace's Slack app (docs/chat.md, "Slack DMs"): linked with POST /api/me/slack/link.
  slack: {
    label: 'Slack',
    bannerLabel: 'Slack DM',
    normalise: slackUserId,
    format: 'chat',
    formB: null,
    quota: null,
    providers: ['slack'],
    credentials: 'SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_SIGNING_SECRET',
  },
} as const satisfies Record<string, ChannelSpec>;

/** A paging channel: also the type of a contact method. */
export type ChannelId = keyof typeof REGISTRY;

/** A provider that sends some channel, as the registry names it (src/integrations/registry.ts maps it to its provider folder). */
export type ProviderKey = (typeof REGISTRY)[ChannelId]['providers'][number];

/** The provider key of the dev inbox, where a channel without provider credentials keeps its pages. */
export const DEV_INBOX = 'dev_inbox';

/** The registry, by channel id. */
export const CHANNELS: Readonly<Record<ChannelId, ChannelSpec<ProviderKey>>> = REGISTRY;

/** Every channel id, in the order people see them listed. */
export const CHANNEL_IDS = Object.freeze(Object.keys(REGISTRY) as ChannelId[]);

/** Whether a stored or typed string names a channel. */
export function isChannelId(value: string): value is ChannelId {
  return Object.hasOwn(REGISTRY, value);
}

/** Checks and normalises an address for its channel; messages never repeat a device token. */
export function normaliseAddress(channel: ChannelId, raw: string): AddressResult {
  return CHANNELS[channel].normalise(raw.trim(), channel);
}

/**
 * An address as people read it (timeline, trace, skipped-contact notes). A web push subscription
 * holds its keys and a capability URL, so only its push service's host is shown.
 */
export function displayAddress(channel: string, address: string): string {
  if (channel !== 'push_web') return address;
  try {
    const host = /^https:\/\/([^/?#\s]+)/i.exec((JSON.parse(address) as { endpoint?: unknown }).endpoint as string)?.[1];
    return host ? `browser via ${host}` : 'browser';
  } catch {
    return 'browser';
  }
}
