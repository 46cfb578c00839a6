import { DAY_MS, instantToWall, wallToInstant, type Zone } from './local-time';
import { minutesOf } from './fields';
import type { Restriction } from './restrictions';

/**
 * Restriction windows on the local clock, in wall ms (local-time.ts). DST-exact rule: a window
 * that opens at local wall time W lasts its duration of local WALL time, i.e. it is
 * [wallToInstant(W), wallToInstant(W + duration)) — as handoffs are — so "09:00 for 8 hours" is
 * 09:00–17:00 local on a clock-change day too (7 or 9 real hours when the change falls inside).
 */

const WEEK_MS = 7 * DAY_MS;
// 1970-01-05 (wall ms), a Monday: weeks are counted from it, and days too (it is a midnight).
const MONDAY = 4 * DAY_MS;

/** A window as numbers: it opens `offset` wall ms into every period (a day, or a week from Monday 00:00) and lasts `length`. */
export interface CompiledWindow {
  period: number;
  offset: number;
  length: number;
}

/** Expects a restriction that parseLayers accepted. */
export function compileWindow(r: Restriction): CompiledWindow {
  const time = minutesOf(r.start_time) * 60_000;
  const length = r.duration_seconds * 1000;
  return r.type === 'weekly' ? { period: WEEK_MS, offset: (r.start_day - 1) * DAY_MS + time, length } : { period: DAY_MS, offset: time, length };
}

/** Start of the period (local day or Monday-based week) holding `wall`. */
const periodStart = (wall: number, period: number): number => Math.floor((wall - MONDAY) / period) * period + MONDAY;

/** Whether the occurrence of `w` opening at wall `open` holds `at`. */
const holds = (open: number, w: CompiledWindow, zone: Zone, at: number): boolean =>
  wallToInstant(open, zone) <= at && at < wallToInstant(open + w.length, zone);

/** Whether `at` lies in one of the windows; no windows: always. */
export function inWindows(windows: readonly CompiledWindow[], zone: Zone, at: number): boolean {
  if (windows.length === 0) return true;
  const wall = instantToWall(at, zone);
  return windows.some((w) => {
    const p = periodStart(wall, w.period);
    // The clock reads less than a window's close before it closes, and at most a day less than its
    // opening once it has opened (a clock set back); so only these occurrences can hold `at`:
    // the last period's (running into this one), this one's, and the next one's, already open
    // when a clock set back crosses a period's start (Goose Bay until 2011: 00:01 back to 23:01).
    for (const open of [p - w.period + w.offset, p + w.offset, p + w.period + w.offset]) {
      if (open - DAY_MS <= wall && wall < open + w.length && holds(open, w, zone, at)) return true;
    }
    return false;
  });
}

/** Opening and closing instants of every occurrence of the windows that can touch [from, to). */
export function windowEdges(windows: readonly CompiledWindow[], zone: Zone, from: number, to: number): number[] {
  const lo = instantToWall(from, zone) - DAY_MS;
  const hi = instantToWall(to, zone) + DAY_MS;
  const edges: number[] = [];
  for (const w of windows) {
    for (let open = periodStart(lo, w.period) - w.period + w.offset; open <= hi; open += w.period) {
      if (open + w.length >= lo) edges.push(wallToInstant(open, zone), wallToInstant(open + w.length, zone));
    }
  }
  return edges;
}
