import type { RouteSpec } from '../../http/route-spec';
import type { AdminDeps } from '../admin-kit';

/** Reports: POST /api/reports/generate (json, csv, pdf). */
export function reportsRoutes(_deps: AdminDeps): RouteSpec[] {
  return [];
}
