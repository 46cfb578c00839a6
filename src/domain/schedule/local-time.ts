import { IANAZone } from 'luxon';
import { ScheduleInputError } from './errors';

/**
 * Wall-clock time is handled as "wall milliseconds": the local date and time written as if it
 * were UTC. Calendar arithmetic on it is exact (a day is always 86 400 000 wall ms, whatever
 * the clocks do), and the zone's offsets, from luxon, convert it to and from real instants.
 */

const DAY_MS = 86_400_000;

/** What the clock maths needs of a zone: its offset from UTC, in minutes, at an instant (an IANAZone, or zone-table.ts). */
export interface Zone {
  offset(ts: number): number;
}

/** The IANA zone, or a ScheduleInputError that names it. */
export function zoneOf(name: string): IANAZone {
  if (typeof name !== 'string' || !IANAZone.isValidZone(name)) {
    throw new ScheduleInputError(`unknown time zone ${JSON.stringify(name)}: use an IANA name such as Europe/Berlin or America/New_York`);
  }
  return IANAZone.create(name);
}

/** What the local clock reads at an instant, in wall ms. */
export const instantToWall = (at: number, zone: Zone): number => at + zone.offset(at) * 60_000;

/**
 * The first instant at which the local clock reads `wall` or later. So that every handoff
 * happens exactly once and in order:
 * - a time the clocks skip (02:30 on a New York spring-forward day) happens when the clocks
 *   jump past it (03:00 EDT) — as cron does, not an hour later as Date/luxon would;
 * - a time the clocks read twice (01:30 on a fall-back day) is its first occurrence
 *   (01:30 EDT, before the clocks go back).
 */
export function wallToInstant(wall: number, zone: Zone): number {
  // Any transition that matters lies within 14 h of `wall`; sampling a day either side picks
  // up the offsets before and after it (zones change offset at most once a day).
  const offsets = [...new Set([wall - DAY_MS, wall, wall + DAY_MS].map((t) => zone.offset(t) * 60_000))];
  const exact = offsets.map((o) => wall - o).filter((t) => instantToWall(t, zone) === wall);
  if (exact.length > 0) return Math.min(...exact);
  // In a gap: the clock reads less than `wall` at lo and more at hi; find the jump.
  let lo = wall - Math.max(...offsets);
  let hi = wall - Math.min(...offsets);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (instantToWall(mid, zone) >= wall) hi = mid;
    else lo = mid;
  }
  return hi;
}

export { DAY_MS };
