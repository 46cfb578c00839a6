/**
 * Times as people read them (docs/incident-page.md, "Times"): relative ("3 min ago") with the
 * exact time, in the person's zone, on hover. The zone is the one set in My profile, else the
 * browser's.
 */

/** The browser's own IANA zone (UTC when it does not say). */
export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const UNITS: Array<[seconds: number, one: string, many: string]> = [
  [86_400, 'day', 'days'],
  [3_600, 'hr', 'hr'],
  [60, 'min', 'min'],
];

/** "just now", "3 min ago", "2 hr ago", "5 days ago", or "in 10 min" for a time still ahead. */
export function relativeTime(iso: string, now: number): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  if (Math.abs(seconds) < 45) return 'just now';
  const [size, one, many] = UNITS.find(([unit]) => Math.abs(seconds) >= unit) ?? UNITS[UNITS.length - 1];
  const n = Math.max(1, Math.round(Math.abs(seconds) / size));
  const amount = `${n} ${n === 1 ? one : many}`;
  return seconds < 0 ? `${amount} ago` : `in ${amount}`;
}

/** The exact time in a zone, with the zone's short name: "Nov 24, 2026, 04:00:00 GMT+1". */
export function exactTime(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en', {
    timeZone,
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).format(new Date(iso));
}

// An ISO 8601 instant as the server writes them (toISOString): one fixed-width pattern, linear.
const ISO_INSTANT = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z/g;

/** A message with every ISO instant in it (a maintenance window's end, a drill's time) written in the person's zone. */
export function withReadableTimes(message: string, timeZone: string): string {
  return message.replace(ISO_INSTANT, (instant) => (Number.isNaN(Date.parse(instant)) ? instant : exactTime(instant, timeZone)));
}
