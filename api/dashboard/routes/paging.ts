import type { RouteSpec } from '../../http/route-spec';
import type { AdminDeps } from '../admin-kit';
import { channelRoutes } from './channels';
import { contactRoutes } from './paging-contacts';
import { policyRoutes } from './paging-policies';
import { scheduleRoutes } from './paging-schedules';
import { pushDeviceRoutes } from './push-devices';

/** Paging channels, escalation policies, schedules and overrides, contact methods, push devices and notification rules under /api. */
export function pagingRoutes(deps: AdminDeps): RouteSpec[] {
  return [...channelRoutes(deps), ...policyRoutes(deps), ...scheduleRoutes(deps), ...contactRoutes(deps), ...pushDeviceRoutes(deps)];
}
