import type { RouteSpec } from '../../http/route-spec';
import type { AdminDeps } from '../admin-kit';
import { contactRoutes } from './paging-contacts';
import { policyRoutes } from './paging-policies';
import { scheduleRoutes } from './paging-schedules';

/** Escalation policies, schedules and overrides, contact methods and notification rules under /api. */
export function pagingRoutes(deps: AdminDeps): RouteSpec[] {
  return [...policyRoutes(deps), ...scheduleRoutes(deps), ...contactRoutes(deps)];
}
