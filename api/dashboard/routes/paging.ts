import type { RouteSpec } from '../../http/route-spec';
import type { AdminDeps } from '../admin-kit';

/** Escalation policies, schedules and overrides, contact methods and notification rules under /api. */
export function pagingRoutes(_deps: AdminDeps): RouteSpec[] {
  return [];
}
