import { DateTime } from 'luxon';

/**
 * Who PagerDuty and Opsgenie put on call, worked out from their schedules as their APIs describe
 * them, independently of Klaxon's schedule code: the oracle the on-call equality check
 * (test/integration/importers/oncall-equality.test.ts) holds Klaxon to after an import. It is
 * itself checked against the hand-worked answers of test/fixtures/*\/expected-oncall.json.
 *
 * Times are worked on the schedule's local wall clock, as both sources describe their schedules
 * (handoffs at a local time of day; windows from a local time for a length): a local time is a
 * "wall" value, the local date and time read as if they were UTC, so adding a day or 12 hours to
 * it never slips across a DST change.
 */

type Obj = Record<string, any>;
const SECOND = 1000;

/** The local wall time of an instant, as milliseconds of a naive (UTC-read) date and time. */
function wallOf(at: number, zone: string): number {
  const local = DateTime.fromMillis(at, { zone });
  return Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second, local.millisecond);
}

/** The instant a wall time names in `zone` (a time skipped by a spring-forward moves on, as clocks do). */
function instantOf(wall: number, zone: string): number {
  const d = new Date(wall);
  return DateTime.fromObject(
    { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds() },
    { zone },
  ).toMillis();
}

const DAY = 86_400 * SECOND;
const WEEK = 7 * DAY;
/** Wall midnight of a wall time's day, and of its ISO week's Monday. */
const dayStart = (wall: number) => wall - (((wall % DAY) + DAY) % DAY);
const weekStart = (wall: number) => dayStart(wall) - ((new Date(wall).getUTCDay() + 6) % 7) * DAY;
const clock = (hhmm: string) => {
  const [h, m, s] = hhmm.split(':').map(Number);
  return ((h * 60 + m) * 60 + (s ?? 0)) * SECOND;
};

/** A rotation: wall start, turn length (wall ms), people in order, windows (wall, within a day or a week). */
interface Rotation {
  from: number;
  until: number | null;
  zone: string;
  anchor: number;
  turn: number;
  people: string[];
  windows: Array<{ period: 'day' | 'week'; offset: number; length: number }>;
}

/** Is a wall time inside one of the rotation's windows (none: always)? */
function inWindow(r: Rotation, wall: number): boolean {
  if (r.windows.length === 0) return true;
  return r.windows.some((w) => {
    const base = w.period === 'day' ? dayStart(wall) : weekStart(wall);
    const size = w.period === 'day' ? DAY : WEEK;
    // This period's window, or the last one's running on.
    return [base, base - size].some((b) => wall >= b + w.offset && wall < b + w.offset + w.length);
  });
}

function whoIn(r: Rotation, at: number): string | null {
  if (at < r.from || (r.until !== null && at >= r.until) || r.people.length === 0) return null;
  const wall = wallOf(at, r.zone);
  if (!inWindow(r, wall)) return null;
  const k = Math.floor((wall - r.anchor) / r.turn);
  return r.people[((k % r.people.length) + r.people.length) % r.people.length];
}

/** Every instant in [from, to) where a rotation hands off or a window opens or closes. */
function edgesOf(r: Rotation, from: number, to: number): number[] {
  const out: number[] = [];
  const [wFrom, wTo] = [wallOf(from, r.zone), wallOf(to, r.zone)];
  for (let k = Math.floor((wFrom - r.anchor) / r.turn); r.anchor + k * r.turn < wTo; k++) out.push(instantOf(r.anchor + k * r.turn, r.zone));
  for (const w of r.windows) {
    const size = w.period === 'day' ? DAY : WEEK;
    for (let b = (w.period === 'day' ? dayStart : weekStart)(wFrom) - size; b < wTo; b += size)
      out.push(instantOf(b + w.offset, r.zone), instantOf(b + w.offset + w.length, r.zone));
  }
  return out.filter((t) => t >= from && t < to && t >= r.from);
}

/** A source schedule as rotations, highest priority first, with its overrides. */
export interface SourceSchedule {
  id: string;
  rotations: Rotation[];
  /** Every rotation's person at once (Opsgenie), or the first rotation that has someone (PagerDuty). */
  together: boolean;
  overrides: Array<{ from: number; to: number; person: string }>;
}

/** Who is on call (people's ids of the source), as the source answers. */
export function sourceOnCall(s: SourceSchedule, at: number): string[] {
  const override = s.overrides.filter((o) => o.from <= at && at < o.to).at(-1);
  if (override) return [override.person];
  const people = s.rotations.map((r) => whoIn(r, at)).filter((p): p is string => p !== null);
  return s.together ? [...new Set(people)] : people.slice(0, 1);
}

/** Every handoff and window edge of the schedule (overrides too) in [from, to), sorted. */
export function sourceEdges(s: SourceSchedule, from: number, to: number): number[] {
  const edges = s.rotations.flatMap((r) => edgesOf(r, from, to));
  for (const o of s.overrides) edges.push(o.from, o.to);
  return [...new Set(edges.filter((t) => t >= from && t < to))].sort((a, b) => a - b);
}

/** A PagerDuty schedule (GET /schedules/{id}) and its overrides: layers highest first, turns in seconds, restrictions. */
export function pagerDutySchedule(schedule: Obj, overrides: Obj[] = []): SourceSchedule {
  const zone = schedule.time_zone as string;
  return {
    id: schedule.id,
    together: false,
    rotations: (schedule.schedule_layers as Obj[]).map((l) => ({
      from: Date.parse(l.start),
      until: l.end ? Date.parse(l.end) : null,
      zone,
      anchor: wallOf(Date.parse(l.rotation_virtual_start), zone),
      turn: l.rotation_turn_length_seconds * SECOND,
      people: (l.users as Obj[]).map((u) => u.user.id),
      windows: ((l.restrictions ?? []) as Obj[]).map((r) =>
        r.type === 'daily_restriction'
          ? { period: 'day' as const, offset: clock(r.start_time_of_day), length: r.duration_seconds * SECOND }
          : { period: 'week' as const, offset: (r.start_day_of_week - 1) * DAY + clock(r.start_time_of_day), length: r.duration_seconds * SECOND },
      ),
    })),
    overrides: overrides.map((o) => ({ from: Date.parse(o.start), to: Date.parse(o.end), person: o.user.id })),
  };
}

const OPSGENIE_TURN = { hourly: 3600 * SECOND, daily: DAY, weekly: WEEK } as Record<string, number>;
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** Opsgenie's time restriction as windows: a daily span, or spans of the week (wrapping past its end). */
function opsgenieWindows(tr: Obj | null | undefined): Rotation['windows'] {
  if (!tr) return [];
  const span = (start: number, end: number, size: number) => (end - start + size) % size || size;
  if (tr.type === 'time-of-day') {
    const r = tr.restriction;
    const [start, end] = [(r.startHour * 60 + r.startMin) * 60 * SECOND, (r.endHour * 60 + r.endMin) * 60 * SECOND];
    return [{ period: 'day', offset: start, length: span(start, end, DAY) }];
  }
  return (tr.restrictions as Obj[]).map((r) => {
    const start = WEEKDAYS.indexOf(r.startDay) * DAY + (r.startHour * 60 + r.startMin) * 60 * SECOND;
    const end = WEEKDAYS.indexOf(r.endDay) * DAY + (r.endHour * 60 + r.endMin) * 60 * SECOND;
    return { period: 'week', offset: start, length: span(start, end, WEEK) };
  });
}

/** An Opsgenie schedule (`expand=rotation`) and its overrides: every rotation's person is on call at once. */
export function opsgenieSchedule(schedule: Obj, overrides: Obj[] = []): SourceSchedule {
  const zone = schedule.timezone as string;
  return {
    id: schedule.id,
    together: true,
    rotations: ((schedule.rotations ?? []) as Obj[]).map((r) => ({
      from: Date.parse(r.startDate),
      until: r.endDate ? Date.parse(r.endDate) : null,
      zone,
      anchor: wallOf(Date.parse(r.startDate), zone),
      turn: OPSGENIE_TURN[r.type] * (r.length ?? 1),
      people: ((r.participants ?? []) as Obj[]).filter((p) => p.type === 'user').map((p) => p.id),
      windows: opsgenieWindows(r.timeRestriction),
    })),
    overrides: overrides.map((o) => ({ from: Date.parse(o.startDate), to: Date.parse(o.endDate), person: o.user.id })),
  };
}
