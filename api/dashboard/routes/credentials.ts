import type { RouteSpec } from '../../http/route-spec';
import type { AdminDeps } from '../admin-kit';

/** Customer API tokens and legacy API keys under /api. */
export function credentialsRoutes(_deps: AdminDeps): RouteSpec[] {
  return [];
}
