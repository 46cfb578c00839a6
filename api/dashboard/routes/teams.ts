import type { RouteSpec } from '../../http/route-spec';
import type { AdminDeps } from '../admin-kit';

/** Teams and their members under /api. */
export function teamsRoutes(_deps: AdminDeps): RouteSpec[] {
  return [];
}
