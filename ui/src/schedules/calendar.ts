import { DateTime } from 'luxon';
import type { Shift } from './types';

/**
 * Calendar maths in a chosen IANA zone (luxon): the days of a calendar, the part of each shift
 * that falls on a day, and local date-time text. A day is midnight to midnight on that zone's
 * clock, so across a daylight-saving change it lasts 23 or 25 hours.
 */

const LOCALE = 'en-GB';
const HOUR_MS = 3_600_000;

/** One calendar row: a local day in the zone. */
export interface CalendarDay {
  /** Local date, "yyyy-MM-dd". */
  key: string;
  /** "Sun 25 Oct". */
  label: string;
  start: Date;
  end: Date;
  /** 24, or 23/25 on a daylight-saving change. */
  hours: number;
}

const local = (d: Date | string, zone: string) => (typeof d === 'string' ? DateTime.fromISO(d, { zone }) : DateTime.fromJSDate(d, { zone })).setLocale(LOCALE);

/** The `count` local days of the zone starting with the one that holds `now`. */
export function calendarDays(now: Date, zone: string, count = 14): CalendarDay[] {
  const first = local(now, zone).startOf('day');
  return Array.from({ length: count }, (_, i) => {
    // plus({days}) moves the calendar date and keeps local midnight, whatever the offset does.
    const start = first.plus({ days: i }).startOf('day');
    const end = first.plus({ days: i + 1 }).startOf('day');
    return {
      key: start.toFormat('yyyy-MM-dd'),
      label: start.toFormat('ccc d LLL'),
      start: start.toJSDate(),
      end: end.toJSDate(),
      hours: Math.round(end.diff(start).as('hours')),
    };
  });
}

/** Why a day is not 24 hours long, or null. */
export function dayChange(day: CalendarDay): string | null {
  if (day.hours > 24) return `${day.hours}-hour day: clocks go back`;
  if (day.hours < 24) return `${day.hours}-hour day: clocks go forward`;
  return null;
}

/** The local time of day, "09:00"; with the UTC offset on request ("02:30 UTC+01:00": the hour repeated when clocks go back). */
export function clockTime(d: Date, zone: string, withOffset = false): string {
  const t = local(d, zone);
  return withOffset ? `${t.toFormat('HH:mm')} UTC${t.toFormat('ZZ')}` : t.toFormat('HH:mm');
}

/** The part of a shift that falls on a day, with local times ("24:00" when it runs past midnight). */
export interface DayEntry {
  shift: Shift;
  from: string;
  to: string;
  /** Started on an earlier day / ends on a later one. */
  continuedFrom: boolean;
  continues: boolean;
  hours: number;
}

/** The shifts overlapping a day, in order, cut to the day and labelled on the zone's clock. */
export function entriesOfDay(shifts: readonly Shift[], day: CalendarDay, zone: string): DayEntry[] {
  const dayStart = day.start.getTime();
  const dayEnd = day.end.getTime();
  const withOffset = day.hours !== 24;
  return shifts.flatMap((shift) => {
    const start = Date.parse(shift.start);
    const end = Date.parse(shift.end);
    if (!(start < dayEnd && end > dayStart)) return [];
    const from = Math.max(start, dayStart);
    const to = Math.min(end, dayEnd);
    return [
      {
        shift,
        from: clockTime(new Date(from), zone, withOffset),
        to: to === dayEnd ? '24:00' : clockTime(new Date(to), zone, withOffset),
        continuedFrom: start < dayStart,
        continues: end > dayEnd,
        hours: Math.round(((to - from) / HOUR_MS) * 10) / 10,
      },
    ];
  });
}

/** "Sun 25 Oct, 09:00" on the zone's clock. */
export function formatInstant(iso: string, zone: string): string {
  return local(iso, zone).toFormat('ccc d LLL, HH:mm');
}

/** A `datetime-local` value ("2026-10-25T09:00") read on the zone's clock, as an ISO instant; null when empty or impossible. */
export function localInputToIso(value: string, zone: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value)) return null;
  const t = DateTime.fromISO(value, { zone });
  // A time skipped when clocks go forward: luxon moves it on; refuse it instead of guessing.
  if (!t.isValid || t.toFormat("yyyy-MM-dd'T'HH:mm") !== value) return null;
  return t.toUTC().toISO();
}

/** An instant as a `datetime-local` value on the zone's clock. */
export function isoToLocalInput(iso: string | Date, zone: string): string {
  return local(iso, zone).toFormat("yyyy-MM-dd'T'HH:mm");
}

/** The local date, "yyyy-MM-dd", of an instant in the zone. */
export function localDate(d: Date, zone: string): string {
  return local(d, zone).toFormat('yyyy-MM-dd');
}

/** The viewer's IANA zone (the browser's). */
export function viewerZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Every IANA zone the browser knows, with UTC and the ones given, sorted. */
export function timeZoneOptions(...extra: string[]): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set(['UTC', ...known, ...extra.filter(Boolean)])].sort();
}
