import { DateTime } from 'luxon';
import type { PlannedLayer } from './plan';

/**
 * Time arithmetic the mappers share (pure). Rotations are counted on the schedule's local clock,
 * as src/domain/schedule counts them: a local date and time is handled as "wall milliseconds"
 * (written as if it were UTC), where a day is always 86 400 000.
 */

const HOUR_S = 3600;
const UNIT_SECONDS = { weeks: 7 * 86_400, days: 86_400, hours: HOUR_S } as const;

/** Klaxon's rotation for a turn length in seconds, the largest whole unit first; null when it is not whole hours (or too long). */
export function rotationOfSeconds(seconds: number, maxLength = 1000): PlannedLayer['rotation'] | null {
  if (!Number.isInteger(seconds) || seconds <= 0) return null;
  for (const unit of ['weeks', 'days', 'hours'] as const) {
    if (seconds % UNIT_SECONDS[unit] === 0) {
      const length = seconds / UNIT_SECONDS[unit];
      return length <= maxLength ? { unit, length } : null;
    }
  }
  return null;
}

/** An instant (ISO 8601 with offset) as wall milliseconds in a zone; null when it does not parse. */
export function wallOf(iso: string, zone: string): number | null {
  const at = DateTime.fromISO(iso, { setZone: true });
  if (!at.isValid) return null;
  const local = at.setZone(zone);
  if (!local.isValid) return null;
  return Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second, local.millisecond);
}

/** The local date "YYYY-MM-DD" and time "HH:mm" of wall milliseconds; `seconds` left over (0 when the minute is exact). */
export function splitWall(wall: number): { date: string; time: string; seconds: number } {
  const d = new Date(wall);
  const pad = (n: number) => String(n).padStart(2, '0');
  return {
    date: `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`,
    time: `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`,
    seconds: d.getUTCSeconds() + d.getUTCMilliseconds() / 1000,
  };
}

/** Length of one turn of a rotation, in wall milliseconds. */
export const periodMs = (rotation: PlannedLayer['rotation']): number => rotation.length * UNIT_SECONDS[rotation.unit] * 1000;

/** "HH:MM:SS" (or "HH:MM") as "HH:MM" and its seconds; null when it is not a time of day. */
export function clockOf(text: string): { time: string; seconds: number } | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/.exec(text);
  return m ? { time: `${m[1]}:${m[2]}`, seconds: Number(m[3] ?? 0) } : null;
}

/** "HH:MM" from hours and minutes. */
export const hhmm = (hour: number, minute: number): string => `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;

/** ISO weekday (1 = Monday) of an English day name; undefined for anything else. */
export function isoWeekday(name: string): number | undefined {
  const i = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].indexOf(name.toLowerCase());
  return i < 0 ? undefined : i + 1;
}

/** `users` turned left by k places: who is first after k turns. */
export function rotateLeft<T>(users: readonly T[], k: number): T[] {
  const n = users.length;
  const by = ((k % n) + n) % n;
  return [...users.slice(by), ...users.slice(0, by)];
}
