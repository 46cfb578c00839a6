import type { Restriction, RestrictionType } from './types';

/** A restriction window as the layer form edits it, and its conversion to and from the API's shape. */

/** A window being edited: the weekday is kept while the type is daily, so switching back restores it. */
export interface RestrictionDraft {
  type: RestrictionType;
  /** ISO weekday, 1 = Monday … 7 = Sunday; sent for weekly windows only. */
  startDay: number;
  startTime: string;
  /** The duration, as typed (a number input may hold a half-typed string). */
  hours: number | string;
  minutes: number | string;
  /** Seconds past whole minutes of a stored duration (set through the API), kept so an unchanged window is sent unchanged. */
  seconds: number;
}

/** Keyed by the server's type, so a type it adds or drops fails to compile here (its module is not bundled). */
export const RESTRICTION_TYPES = Object.keys({ daily: true, weekly: true } satisfies Record<RestrictionType, true>) as RestrictionType[];

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** A new window: every day, 09:00 for 8 hours. */
export const newRestriction = (): RestrictionDraft => ({ type: 'daily', startDay: 1, startTime: '09:00', hours: 8, minutes: 0, seconds: 0 });

export function draftOfRestriction(r: Restriction): RestrictionDraft {
  return {
    type: r.type,
    startDay: r.type === 'weekly' ? r.start_day : 1,
    startTime: r.start_time,
    hours: Math.floor(r.duration_seconds / 3600),
    minutes: Math.floor((r.duration_seconds % 3600) / 60),
    seconds: r.duration_seconds % 60,
  };
}

// An empty or half-typed field counts as 0: a window of 0 seconds is then refused by the server, naming duration_seconds.
const count = (v: number | string): number => (typeof v === 'number' ? v : Number(v.trim()) || 0);

/** The window as POST/PUT /schedules takes it; nothing is checked here, the server names what is wrong. */
export function restrictionBody(d: RestrictionDraft): Restriction {
  const duration_seconds = count(d.hours) * 3600 + count(d.minutes) * 60 + d.seconds;
  return d.type === 'weekly'
    ? { type: 'weekly', start_day: d.startDay, start_time: d.startTime, duration_seconds }
    : { type: 'daily', start_time: d.startTime, duration_seconds };
}

/** "8h", "8h 30m", "45m" (seconds, which only the API sets, are left out). */
export function durationText(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  if (h === 0 && m === 0) return `${seconds}s`;
  return [h ? `${h}h` : '', m ? `${m}m` : ''].filter(Boolean).join(' ');
}

/** The window in words on the schedule's clock: "Every day 22:00 for 8h", "Mon 09:00 for 8h". */
export function describeRestriction(r: Restriction): string {
  const day = r.type === 'weekly' ? (WEEKDAYS[r.start_day - 1]?.slice(0, 3) ?? `day ${r.start_day}`) : 'Every day';
  return `${day} ${r.start_time} for ${durationText(r.duration_seconds)}`;
}
