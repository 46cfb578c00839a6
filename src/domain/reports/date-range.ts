/**
 * A report's date range: `YYYY-MM-DD to YYYY-MM-DD`, whole days in one time zone, both ends
 * inclusive, never reaching further back than the plan keeps history. Pure: the caller passes
 * the clock and the zone.
 */
import { DateTime } from 'luxon';

/** Days a report covers when the request names no range (the last 30, today included). */
export const DEFAULT_RANGE_DAYS = 30;

const RANGE_SHAPE = /^(\d{4}-\d{2}-\d{2}) to (\d{4}-\d{2}-\d{2})$/;

/** Inclusive calendar days, `YYYY-MM-DD`, read in `zone`. */
export interface DateRange {
  from: string;
  to: string;
  zone: string;
}

/** Why a range was refused, said so the field is named. */
export type RangeProblem = { ok: false; message: string };

/** The calendar day an instant falls on in a zone. */
export const dayIn = (at: Date, zone: string): string => DateTime.fromJSDate(at, { zone }).toISODate()!;

const shiftDays = (day: string, days: number): string => DateTime.fromISO(day, { zone: 'UTC' }).plus({ days }).toISODate()!;

const isCalendarDay = (day: string): boolean => DateTime.fromISO(day, { zone: 'UTC' }).isValid;

/** The first day a plan still keeps: `historyDays` before today. */
export const historyWindowStart = (today: string, historyDays: number): string => shiftDays(today, -historyDays);

/**
 * Reads a request's range in `zone`. Without one: the last 30 days up to today, cut to the
 * history window. Refuses a malformed range, an end before the start, and a start before the
 * window (the message names `dateRange` and the window).
 */
export function parseDateRange(
  input: string | undefined,
  opts: { now: Date; zone: string; historyDays: number },
): { ok: true; range: DateRange } | RangeProblem {
  const today = dayIn(opts.now, opts.zone);
  const windowStart = historyWindowStart(today, opts.historyDays);
  if (input === undefined) {
    const from = shiftDays(today, -(DEFAULT_RANGE_DAYS - 1));
    return { ok: true, range: { from: from < windowStart ? windowStart : from, to: today, zone: opts.zone } };
  }
  const match = RANGE_SHAPE.exec(input.trim());
  if (!match || !isCalendarDay(match[1]) || !isCalendarDay(match[2])) {
    return { ok: false, message: 'dateRange: expected "YYYY-MM-DD to YYYY-MM-DD" with real calendar days' };
  }
  const [, from, to] = match;
  if (to < from) return { ok: false, message: `dateRange: the end (${to}) is before the start (${from})` };
  if (from < windowStart) {
    return {
      ok: false,
      message: `dateRange: starts ${from}, before your plan's history window of ${opts.historyDays} days (${windowStart} to ${today}, ${opts.zone}); older incidents are no longer kept`,
    };
  }
  return { ok: true, range: { from, to, zone: opts.zone } };
}

/** The instants a range covers: from its first day's midnight up to (excluding) the midnight after its last. */
export function rangeInstants(range: DateRange): { start: Date; end: Date } {
  const start = DateTime.fromISO(range.from, { zone: range.zone }).startOf('day');
  const end = DateTime.fromISO(range.to, { zone: range.zone }).plus({ days: 1 }).startOf('day');
  return { start: start.toJSDate(), end: end.toJSDate() };
}

/** Every day of a range, in order. */
export function daysOf(range: DateRange): string[] {
  const days: string[] = [];
  for (let day = range.from; day <= range.to; day = shiftDays(day, 1)) days.push(day);
  return days;
}
