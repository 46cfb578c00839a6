import type { RouteSpec } from '../../http/route-spec';
import type { AdminDeps } from '../admin-kit';

/** Members, invitations, the plan under /api. */
export function membersRoutes(_deps: AdminDeps): RouteSpec[] {
  return [];
}
