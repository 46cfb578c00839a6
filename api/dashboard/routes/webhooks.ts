import type { RouteSpec } from '../../http/route-spec';
import type { AdminDeps } from '../admin-kit';

/** The spec's dashboard webhook routes (GET/POST /api/webhooks, GET/DELETE /api/webhooks/:id, POST /api/webhooks/:id/test). */
export function webhooksRoutes(_deps: AdminDeps): RouteSpec[] {
  return [];
}
