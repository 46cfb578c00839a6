import type { PlannedRestriction } from './plan';

/**
 * Opsgenie pages every rotation of a schedule at once; a Klaxon schedule puts one person on call
 * (its upper layer wins). Two rotations whose time windows share a minute of the week can be on
 * call together: the importer reports them. Pure, on a week of minutes in the schedule's clock.
 */

const WEEK_MIN = 7 * 1440;
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** The minutes of a local week (0 = Monday 00:00) a layer's windows cover; no windows cover all. */
export function weeklyCoverage(restrictions: readonly PlannedRestriction[] | undefined): Uint8Array {
  const week = new Uint8Array(WEEK_MIN);
  if (!restrictions?.length) return week.fill(1);
  for (const r of restrictions) {
    const start = Number(r.start_time.slice(0, 2)) * 60 + Number(r.start_time.slice(3, 5));
    const minutes = Math.ceil(r.duration_seconds / 60);
    const days = r.type === 'daily' ? [0, 1, 2, 3, 4, 5, 6] : [(r.start_day ?? 1) - 1];
    for (const day of days) for (let m = 0; m < minutes; m++) week[(day * 1440 + start + m) % WEEK_MIN] = 1;
  }
  return week;
}

/** The first minute of the week both cover, as "Monday 09:00", or null. */
export function firstSharedMinute(a: Uint8Array, b: Uint8Array): string | null {
  for (let m = 0; m < WEEK_MIN; m++) {
    if (a[m] && b[m]) {
      const minute = m % 1440;
      return `${DAYS[Math.floor(m / 1440)]} ${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
    }
  }
  return null;
}
