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
