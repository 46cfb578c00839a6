/**
 * How paging addresses look (pure, import-free): the checks each channel's declaration
 * (src/integrations/<name>/channel.ts) uses to validate and normalise a contact method's address.
 * Messages never repeat a device token, a subscription's keys or a user key.
 */

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
export function phoneNumber(value: string, channel: string): AddressResult {
  const number = value.replace(/[\s().-]/g, '');
  return /^\+[1-9]\d{7,14}$/.test(number)
    ? { ok: true, address: number }
    : { ok: false, message: `must be a phone number in E.164 form for ${channel}: + and 8 to 15 digits, e.g. +14155550100` };
}

/** An email address, lower-cased so one mailbox is one contact. */
export function emailAddress(value: string): AddressResult {
  const email = value.toLowerCase();
  return EMAIL_PATTERN.test(email) ? { ok: true, address: email } : { ok: false, message: 'must be an email address for email' };
}

/** A push device token: opaque visible characters. A token is close to a credential, so messages never echo it. */
export function deviceToken(value: string, channel: string): AddressResult {
  if (!/^[\x21-\x7e]+$/.test(value) || value.length > MAX_DEVICE_TOKEN_LENGTH) {
    return { ok: false, message: `must be a device token for ${channel}: 1 to ${MAX_DEVICE_TOKEN_LENGTH} visible characters, no spaces` };
  }
  return { ok: true, address: value };
}

/** An APNs device token: hex in any case, stored lower-case so duplicates stay detectable. */
export function apnsDeviceToken(value: string, channel: string): AddressResult {
  const token = deviceToken(value, channel);
  return token.ok && /^[0-9a-f]+$/i.test(token.address) ? { ok: true, address: token.address.toLowerCase() } : token;
}

/** A Slack member id (`U…`, or `W…` on Enterprise Grid): what a Slack DM is addressed to. */
export function slackUserId(value: string): AddressResult {
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
export function webPushSubscription(value: string, channel: string): AddressResult {
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
