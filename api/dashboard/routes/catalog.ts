import type { RouteSpec } from '../../http/route-spec';
import type { AdminDeps } from '../admin-kit';

/** Services, alert sources and heartbeats under /api. */
export function catalogRoutes(_deps: AdminDeps): RouteSpec[] {
  return [];
}
