/**
 * Availability over 24 h, 7 d and 30 d, and per day for the uptime bars, from monitor checks or from the time heartbeat incidents
 * were open. Pure: no I/O, so the windows and the interval arithmetic are unit-tested.
 */

export const UPTIME_WINDOWS = { '24h': 24 * 3_600_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 } as const;
export type UptimeWindow = keyof typeof UPTIME_WINDOWS;
export const UPTIME_WINDOW_NAMES = Object.keys(UPTIME_WINDOWS) as UptimeWindow[];

/** A half-open span of time, epoch ms; `end` null means still going (until now). */
export interface Span {
  start: number;
  end: number | null;
}

/** Per window, a ratio in [0, 1] rounded to 6 places, or null when nothing was observed. */
export type Availability = Record<UptimeWindow, number | null>;

const round = (x: number) => Math.round(x * 1e6) / 1e6;

/** Where each window starts, counted back from `now`. */
export function windowStarts(now: number): Record<UptimeWindow, number> {
  return Object.fromEntries(UPTIME_WINDOW_NAMES.map((w) => [w, now - UPTIME_WINDOWS[w]])) as Record<UptimeWindow, number>;
}

/** The spans clipped to [from, to], overlaps merged, sorted: each instant counted once. */
export function clipAndMerge(spans: readonly Span[], from: number, to: number): Array<{ start: number; end: number }> {
  const clipped = spans
    .map((s) => ({ start: Math.max(s.start, from), end: Math.min(s.end ?? to, to) }))
    .filter((s) => s.end > s.start)
    .sort((a, b) => a.start - b.start);
  const merged: Array<{ start: number; end: number }> = [];
  for (const s of clipped) {
    const last = merged[merged.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else merged.push({ ...s });
  }
  return merged;
}

/** Milliseconds of [from, to] covered by the spans (overlaps counted once). */
export function coveredMs(spans: readonly Span[], from: number, to: number): number {
  return clipAndMerge(spans, from, to).reduce((ms, s) => ms + (s.end - s.start), 0);
}

/** Monitors: ok checks ÷ checks, per window (counted by the database); null where a window holds no check. */
export function checkAvailability(counts: Record<UptimeWindow, { ok: number; total: number }>): Availability {
  return Object.fromEntries(UPTIME_WINDOW_NAMES.map((w) => [w, counts[w].total === 0 ? null : round(counts[w].ok / counts[w].total)])) as Availability;
}

/**
 * Heartbeats: 1 − down ÷ watched, per window. Watched time starts when the heartbeat was created
 * and leaves out the spans it was paused (neither up nor down); down time is the part of the
 * watched time inside its missed-check-in incidents. Null where nothing of the window was watched.
 */
export function heartbeatAvailability(input: HeartbeatHistory, now: number): Availability {
  const starts = windowStarts(now);
  return Object.fromEntries(UPTIME_WINDOW_NAMES.map((w) => [w, heartbeatAvailabilityBetween(input, starts[w], now)])) as Availability;
}

/** What a heartbeat's availability is computed from: when it was made, when it was down, when paused. */
export interface HeartbeatHistory {
  createdAt: number;
  down: readonly Span[];
  paused: readonly Span[];
}

/** A heartbeat's availability over [from, to]: down time ÷ watched time, paused time being neither. */
function heartbeatAvailabilityBetween(input: HeartbeatHistory, windowStart: number, to: number): number | null {
  const from = Math.max(windowStart, input.createdAt);
  if (from >= to) return null;
  const paused = coveredMs(input.paused, from, to);
  const watched = to - from - paused;
  if (watched <= 0) return null;
  // Down while paused does not count: only the down time outside the paused spans.
  const down = coveredMs(input.down, from, to) - overlapMs(input.down, input.paused, from, to);
  return round(Math.max(0, 1 - down / watched));
}

/** The uptime bar's days: 30 blocks of 24 hours counted back from now, oldest first. */
export const DAILY_BLOCKS = 30;
const DAY_MS = 86_400_000;

/** One block of the uptime bar: [from, to) and the availability in it, null when nothing was watched. */
export interface DailyAvailability {
  from: string;
  to: string;
  availability: number | null;
}

/** Block `i` (0 = the oldest) covers [now − (blocks − i) days, now − (blocks − 1 − i) days). */
export function dailyBlocks(now: number, blocks = DAILY_BLOCKS): Array<{ from: number; to: number }> {
  return Array.from({ length: blocks }, (_, i) => ({ from: now - (blocks - i) * DAY_MS, to: now - (blocks - 1 - i) * DAY_MS }));
}

/** How many whole days before `now` an instant lies: the block index counted from the newest. */
export const daysAgo = (at: number, now: number) => Math.floor((now - at) / DAY_MS);

/** A heartbeat's availability per block. */
export function heartbeatDaily(input: HeartbeatHistory, now: number): DailyAvailability[] {
  return dailyBlocks(now).map((b) => ({
    from: new Date(b.from).toISOString(),
    to: new Date(b.to).toISOString(),
    availability: heartbeatAvailabilityBetween(input, b.from, b.to),
  }));
}

/** A monitor's availability per block, from its ok and total checks per `daysAgo` (0 = the last 24 hours). */
export function checkDaily(countsByDaysAgo: ReadonlyMap<number, { ok: number; total: number }>, now: number): DailyAvailability[] {
  return dailyBlocks(now).map((b, i) => {
    const counts = countsByDaysAgo.get(DAILY_BLOCKS - 1 - i);
    return {
      from: new Date(b.from).toISOString(),
      to: new Date(b.to).toISOString(),
      availability: counts && counts.total > 0 ? round(counts.ok / counts.total) : null,
    };
  });
}

/** Milliseconds of [from, to] inside both a span of `a` and a span of `b`. */
export function overlapMs(a: readonly Span[], b: readonly Span[], from: number, to: number): number {
  const ma = clipAndMerge(a, from, to);
  const mb = clipAndMerge(b, from, to);
  let ms = 0;
  for (const x of ma) for (const y of mb) ms += Math.max(0, Math.min(x.end, y.end) - Math.max(x.start, y.start));
  return ms;
}

/**
 * The spans a heartbeat was paused, from its pause/resume events in time order: a pause opens a
 * span, a resume closes it; one still open runs until now. `pausedNow` covers a heartbeat paused
 * before any event was recorded (from its creation).
 */
export function pausedSpans(events: ReadonlyArray<{ at: number; paused: boolean }>, opts: { createdAt: number; pausedNow: boolean }): Span[] {
  const spans: Span[] = [];
  let open: number | null = null;
  for (const e of [...events].sort((x, y) => x.at - y.at)) {
    if (e.paused && open === null) open = e.at;
    else if (!e.paused && open !== null) {
      spans.push({ start: open, end: e.at });
      open = null;
    }
  }
  if (open !== null) spans.push({ start: open, end: null });
  else if (opts.pausedNow && spans.length === 0 && events.length === 0) spans.push({ start: opts.createdAt, end: null });
  return spans;
}
