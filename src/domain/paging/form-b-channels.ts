import { CHANNEL_IDS, CHANNELS, type ChannelId } from '../channels';
import { orList } from '../or-list';
import { SEVERITIES, type Severity } from '../severity';

/** SEVERITIES lists the highest first: a lower index is more severe. */
const rank = (severity: Severity) => SEVERITIES.indexOf(severity);

/**
 * The channels a Form B source pages for an incident of this severity: its configured list cut
 * to the channels whose default table (the registry's `formB.minSeverity`) includes the severity.
 */
export function formBChannels(severity: Severity, configured: readonly string[]): ChannelId[] {
  const wanted = new Set(configured.map((c) => c.toLowerCase()));
  return CHANNEL_IDS.filter((id) => {
    const formB = CHANNELS[id].formB;
    return formB !== null && wanted.has(formB.name) && rank(severity) <= rank(formB.minSeverity);
  });
}

/** Form B's names, once each, in registry order: sms, voice, email, push. */
const FORM_B_NAMES = [...new Set(CHANNEL_IDS.flatMap((id) => CHANNELS[id].formB?.name ?? []))];

/** The names a source's channel list may use: Form B's lowercase ones and the dashboard's aliases. */
const SOURCE_CHANNEL_NAMES: ReadonlyMap<string, string> = new Map(
  CHANNEL_IDS.flatMap((id) => {
    const formB = CHANNELS[id].formB;
    return formB ? [formB.name, ...formB.aliases].map((alias) => [alias, formB.name] as const) : [];
  }),
);

/** How a source's channel list is written, for help texts: `sms,voice,email,push`. */
export const FORM_B_CHANNEL_LIST = FORM_B_NAMES.join(',');

/** Normalises a source's channel list (`sms`, `CALL`, `PUSH_NOTIF`…), or a message naming the unknown ones. */
export function parseSourceChannels(names: readonly string[]): { ok: true; channels: string[] } | { ok: false; message: string } {
  const nameOf = (n: string) => SOURCE_CHANNEL_NAMES.get(n.trim().toLowerCase());
  const bad = names.filter((n) => !nameOf(n));
  if (bad.length) return { ok: false, message: `unknown channel ${bad.map((b) => JSON.stringify(b)).join(', ')}; use ${orList(FORM_B_NAMES)}` };
  if (!names.length) return { ok: false, message: 'at least one channel is required' };
  return { ok: true, channels: [...new Set(names.map((n) => nameOf(n)!))] };
}
