import { z } from 'zod';
import { hhmm, minutesOf, notAnObject } from './fields';

/** Restriction windows: when in the day or week a layer applies (docs/api/paging-setup.md, "Restrictions"). */

export const RESTRICTION_TYPES = ['daily', 'weekly'] as const;
export type RestrictionType = (typeof RESTRICTION_TYPES)[number];

export const DAY_SECONDS = 86_400;
export const WEEK_SECONDS = 7 * DAY_SECONDS;

/**
 * A window on the schedule's clock in which a layer applies: it opens at `start_time` (on
 * `start_day`, ISO 1 = Monday … 7 = Sunday, for a weekly one) and lasts `duration_seconds` of
 * local wall time, so it may run past midnight, or past Sunday into Monday.
 */
export type Restriction =
  { type: 'daily'; start_time: string; duration_seconds: number } | { type: 'weekly'; start_day: number; start_time: string; duration_seconds: number };

/** The first shape of a daily window, still accepted from older clients and in stored rows; `to` <= `from` wraps past midnight. */
export interface LegacyWindow {
  from: string;
  to: string;
}

const WEEKDAYS = '1 (Monday) to 7 (Sunday)';

/** An old `{from, to}` window as the daily restriction it always meant. */
export function fromLegacyWindow(w: LegacyWindow): Restriction {
  const minutes = (minutesOf(w.to) - minutesOf(w.from) + 24 * 60) % (24 * 60);
  return { type: 'daily', start_time: w.from, duration_seconds: minutes * 60 };
}

/** A stored window in today's shape (rows written before weekly windows hold `{from, to}`). */
export const currentRestriction = (r: Restriction | LegacyWindow): Restriction => ('from' in r ? fromLegacyWindow(r) : r);

// Every key is optional here so that what is missing or misplaced is named by the check below,
// field by field, instead of zod's "Invalid input" for a union that matched nothing.
const fields = z.strictObject(
  {
    type: z.enum(RESTRICTION_TYPES, { message: 'must be "daily" or "weekly"' }).optional(),
    start_day: z
      .number({ message: `must be an ISO weekday, ${WEEKDAYS}` })
      .int(`must be a whole ISO weekday, ${WEEKDAYS}`)
      .min(1, `must be an ISO weekday, ${WEEKDAYS}`)
      .max(7, `must be an ISO weekday, ${WEEKDAYS}`)
      .optional(),
    start_time: hhmm.optional(),
    duration_seconds: z
      .number({ message: 'must be a number of seconds' })
      .int('must be a whole number of seconds')
      .min(1, 'must be at least 1')
      .max(WEEK_SECONDS, `must be at most ${WEEK_SECONDS} (a week)`)
      .optional(),
    from: hhmm.optional(),
    to: hhmm.optional(),
  },
  notAnObject('must be an object {"type", "start_day"?, "start_time", "duration_seconds"}'),
);
type Fields = z.infer<typeof fields>;

const NEW_KEYS = ['type', 'start_day', 'start_time', 'duration_seconds'] as const;

function checkLegacy(r: Fields, issue: (path: string[], message: string) => void): void {
  if (NEW_KEYS.some((k) => r[k] !== undefined)) {
    issue([], 'give either {"type", "start_day"?, "start_time", "duration_seconds"} or the old {"from", "to"}, not both');
    return;
  }
  if (r.from === undefined) issue(['from'], 'is required with "to"');
  if (r.to === undefined) issue(['to'], 'is required with "from"');
  if (r.from !== undefined && r.from === r.to) issue([], 'from and to must differ');
}

function checkWindow(r: Fields, issue: (path: string[], message: string) => void): void {
  if (r.type === undefined) issue(['type'], 'is required: "daily" or "weekly"');
  if (r.start_time === undefined) issue(['start_time'], 'is required: a local time "HH:mm"');
  if (r.duration_seconds === undefined) issue(['duration_seconds'], 'is required: how long the window lasts, in seconds');
  if (r.type === 'weekly' && r.start_day === undefined) issue(['start_day'], `is required for a weekly window: ${WEEKDAYS}`);
  if (r.type === 'daily' && r.start_day !== undefined) issue(['start_day'], 'is only for weekly windows: a daily window opens every day');
  if (r.type === 'daily' && r.duration_seconds !== undefined && r.duration_seconds > DAY_SECONDS) {
    issue(['duration_seconds'], `must be at most ${DAY_SECONDS} (a whole day) for a daily window`);
  }
}

/** One restriction as given: today's shape or the old `{from, to}`, checked and turned into today's shape. */
export const restrictionSchema = fields
  .superRefine((r, ctx) => {
    const issue = (path: string[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    if (r.from !== undefined || r.to !== undefined) checkLegacy(r, issue);
    else checkWindow(r, issue);
  })
  // Runs only once the checks above passed, so the fallbacks are never used.
  .transform((r): Restriction => {
    if (r.from !== undefined && r.to !== undefined) return fromLegacyWindow({ from: r.from, to: r.to });
    const window = { start_time: r.start_time ?? '', duration_seconds: r.duration_seconds ?? 0 };
    return r.type === 'weekly' ? { type: 'weekly', start_day: r.start_day ?? 0, ...window } : { type: 'daily', ...window };
  });
