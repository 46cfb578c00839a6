import type { RouteSpec } from '../../http/route-spec';
import type { AdminDeps } from '../admin-kit';

/** Operational status: /api/status, /api/response-time, /api/uptime. */
export function statusRoutes(_deps: AdminDeps): RouteSpec[] {
  return [];
}
