import type { DailyAvailability } from './types';

/**
 * The uptime bar's days, from GET /api/uptime's `daily`: 30 blocks of 24 hours counted back from
 * the moment of the request, oldest first, each with its own availability. Blocks that ended
 * before the heartbeat or monitor existed are "not watched yet".
 */

export const UPTIME_DAYS = 30;
const DAY_MS = 86_400_000;

/** One segment of the bar: the 24 hours up to `end`. */
export interface UptimeDay {
  end: Date;
  /** The ratio shown, in [0, 1]; null when nothing was observed. */
  availability: number | null;
  /** False for a block that ended before the object existed. */
  watched: boolean;
  /** True for the newest block, the last 24 hours. */
  latest: boolean;
}

/** The bar's days, oldest first, ending now; grey blocks up to now while the figures load. */
export function uptimeDays(daily: readonly DailyAvailability[] | undefined, createdAt: string, now: Date, days = UPTIME_DAYS): UptimeDay[] {
  const created = new Date(createdAt).getTime();
  const blocks = daily?.length
    ? daily.map((d) => ({ end: new Date(d.to), availability: d.availability }))
    : Array.from({ length: days }, (_, i) => ({ end: new Date(now.getTime() - (days - 1 - i) * DAY_MS), availability: null }));
  return blocks.map((b, i) => ({ ...b, watched: b.end.getTime() > created, latest: i === blocks.length - 1 }));
}

/** Mantine colour names, by how available: green at three nines and up, red under 95 %. */
export type UptimeColor = 'gray' | 'green' | 'lime' | 'yellow' | 'orange' | 'red';

export function uptimeColor(ratio: number | null): UptimeColor {
  if (ratio === null) return 'gray';
  if (ratio >= 0.999) return 'green';
  if (ratio >= 0.99) return 'lime';
  if (ratio >= 0.98) return 'yellow';
  if (ratio >= 0.95) return 'orange';
  return 'red';
}

/**
 * A ratio as a percentage with at most two decimals, rounded down so that a single failure never
 * reads as "100 %" (0.99999 → "99.99 %").
 */
export function formatPercent(ratio: number): string {
  // Via whole millionths: the API gives 6 decimals, and 0.9995 * 10000 is 9994.999… in floating point.
  const hundredths = Math.floor(Math.round(ratio * 1e6) / 100);
  return `${hundredths / 100} %`;
}

/** The bar's accessible name: "Checkout API: 99.95 % over 30 days". */
export function uptimeLabel(name: string, ratio: number | null, days = UPTIME_DAYS): string {
  return `${name}: ${ratio === null ? 'no data' : formatPercent(ratio)} over ${days} days`;
}

/** A local calendar day, YYYY-MM-DD. */
export const localDay = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
const localTime = (d: Date) => `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;

/** A segment's tooltip: the 24 hours it covers and its figure. */
export function dayTitle(day: UptimeDay): string {
  const figure = day.availability === null ? 'no data' : formatPercent(day.availability);
  if (day.latest) return `Last 24 hours: ${figure}`;
  if (!day.watched) return `24 h to ${localDay(day.end)} ${localTime(day.end)}: not watched yet`;
  return `24 h to ${localDay(day.end)} ${localTime(day.end)}: ${figure}`;
}
