import type { Severity } from '../severity';

/** A paging channel of a contact method. */
export type PageChannel = 'sms' | 'voice' | 'email' | 'push_ios' | 'push_android';

/**
 * The spec's Form B default channels by severity: critical → SMS, voice, email; warning → SMS,
 * email; info → email. Our five-level scale maps high and medium to warning, low and info to info.
 */
const DEFAULTS: Record<Severity, readonly string[]> = {
  CRITICAL: ['sms', 'voice', 'email'],
  HIGH: ['sms', 'email'],
  MEDIUM: ['sms', 'email'],
  LOW: ['email'],
  INFO: ['email'],
};

/**
 * The channels a Form B source pages for an incident of this severity: its configured list
 * cut to the severity's defaults. Push is not in the spec's table; a source that lists it always
 * pushes (a push is the quietest page there is).
 */
export function formBChannels(severity: Severity, configured: readonly string[]): PageChannel[] {
  const wanted = new Set(configured.map((c) => c.toLowerCase()));
  const channels: PageChannel[] = [];
  for (const c of DEFAULTS[severity]) if (wanted.has(c)) channels.push(c as PageChannel);
  if (wanted.has('push')) channels.push('push_ios', 'push_android');
  return channels;
}

/** The names a source's channel list may use: Form B's lowercase ones and the dashboard's. */
const SOURCE_CHANNEL_NAMES: Record<string, string> = { sms: 'sms', email: 'email', voice: 'voice', call: 'voice', push: 'push', push_notif: 'push' };

/** Normalises a source's channel list (`sms`, `CALL`, `PUSH_NOTIF`…); null with the bad names listed. */
export function parseSourceChannels(names: readonly string[]): { ok: true; channels: string[] } | { ok: false; message: string } {
  const bad = names.filter((n) => !SOURCE_CHANNEL_NAMES[n.trim().toLowerCase()]);
  if (bad.length) return { ok: false, message: `unknown channel ${bad.map((b) => JSON.stringify(b)).join(', ')}; use sms, voice, email or push` };
  if (!names.length) return { ok: false, message: 'at least one channel is required' };
  return { ok: true, channels: [...new Set(names.map((n) => SOURCE_CHANNEL_NAMES[n.trim().toLowerCase()]))] };
}
