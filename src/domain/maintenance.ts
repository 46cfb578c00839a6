/**
 * Maintenance windows (docs/maintenance-windows.md): while one covers a service, its incidents
 * open and attach as usual but page nobody; when it ends, those still TRIGGERED page as if they
 * had just opened. Pure: which window holds an instant, until when, its limits and its wording.
 */

/** A window as the rules need it. */
export interface MaintenanceWindowSpan {
  id: string;
  reason: string;
  startsAt: Date;
  endsAt: Date;
}

export type MaintenanceState = 'scheduled' | 'active' | 'ended';

/** Caps on what a window may be: checked before anything is written. */
export const MAINTENANCE_LIMITS = {
  /** The longest a window may last: a week, so a forgotten window cannot silence a service for good. */
  maxDurationMs: 7 * 24 * 3600_000,
  /** How far ahead a window may start. */
  maxLeadMs: 90 * 24 * 3600_000,
  maxServices: 100,
  maxReasonLength: 500,
  /** "Now for N minutes": 1 minute to the week above. */
  maxMinutes: 7 * 24 * 60,
} as const;

/** Where a window stands at `now`: it covers [startsAt, endsAt). */
export function maintenanceState(w: Pick<MaintenanceWindowSpan, 'startsAt' | 'endsAt'>, now: Date): MaintenanceState {
  if (now < w.startsAt) return 'scheduled';
  return now < w.endsAt ? 'active' : 'ended';
}

/** What holds paging at an instant: the covering window that lasts longest, and its end. */
export interface MaintenanceHold {
  windowId: string;
  reason: string;
  until: Date;
}

/** The hold of a service's windows at `now`, or null when none covers it. */
export function holdAt(windows: readonly MaintenanceWindowSpan[], now: Date): MaintenanceHold | null {
  let hold: MaintenanceHold | null = null;
  for (const w of windows) {
    if (maintenanceState(w, now) !== 'active') continue;
    if (!hold || w.endsAt > hold.until) hold = { windowId: w.id, reason: w.reason, until: w.endsAt };
  }
  return hold;
}

/** Why a new window is refused: the field at fault and what is wrong with it; null when it may be written. */
export function windowSpanProblem(span: { startsAt: Date; endsAt: Date }, now: Date): { field: 'starts_at' | 'ends_at'; message: string } | null {
  if (span.endsAt <= span.startsAt) return { field: 'ends_at', message: 'must be after starts_at' };
  if (span.endsAt <= now) return { field: 'ends_at', message: 'must be in the future' };
  if (span.endsAt.getTime() - span.startsAt.getTime() > MAINTENANCE_LIMITS.maxDurationMs) return { field: 'ends_at', message: 'a window lasts at most 7 days' };
  if (span.startsAt.getTime() - now.getTime() > MAINTENANCE_LIMITS.maxLeadMs) return { field: 'starts_at', message: 'must be within 90 days from now' };
  return null;
}

/** The timeline line of a spell the window holds. */
export function notPagedMessage(hold: Pick<MaintenanceHold, 'reason' | 'until'>): string {
  return `Not paged: maintenance window “${hold.reason}” until ${hold.until.toISOString()}; pages then if still triggered.`;
}

/** The paging decision entry's data for a hold (kind `maintenance_window`, beside `step_resolved` and `nobody_to_page`). */
export function heldDecisionData(hold: MaintenanceHold): { kind: 'maintenance_window'; window_id: string; reason: string; until: string } {
  return { kind: 'maintenance_window', window_id: hold.windowId, reason: hold.reason, until: hold.until.toISOString() };
}
