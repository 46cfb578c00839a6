/** A monitor's state from its checks: `PENDING` before the first, then `UP` or `DOWN`. */
export type MonitorState = 'PENDING' | 'UP' | 'DOWN';

export interface MonitorHealth {
  state: MonitorState;
  consecutiveFailures: number;
  /** Whether the monitor has an incident open (opened by an earlier failure). */
  incidentOpen: boolean;
}

/** What a check changes: the new health, and whether to open or resolve the monitor's incident. */
export interface HealthChange {
  next: MonitorHealth;
  action: 'open' | 'resolve' | null;
}

/**
 * The consecutive-failures machine. A failure counts; the `threshold`-th in a row (or any later
 * one while none is open) opens an incident and marks the monitor DOWN. The first success after
 * resets the count, marks it UP and resolves the open incident. Below the threshold a failing
 * monitor stays as it was (UP, or PENDING before its first success).
 */
export function applyCheck(health: MonitorHealth, ok: boolean, threshold: number): HealthChange {
  if (ok) {
    return { next: { state: 'UP', consecutiveFailures: 0, incidentOpen: false }, action: health.incidentOpen ? 'resolve' : null };
  }
  const consecutiveFailures = health.consecutiveFailures + 1;
  if (consecutiveFailures < threshold) return { next: { ...health, consecutiveFailures }, action: null };
  return { next: { state: 'DOWN', consecutiveFailures, incidentOpen: true }, action: health.incidentOpen ? null : 'open' };
}
