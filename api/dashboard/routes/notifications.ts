import type { RouteSpec } from '../../http/route-spec';
import type { AdminDeps } from '../admin-kit';

/** In-app notifications of the signed-in user: unread count, mark all read, a paged list. */
export function notificationsRoutes(_deps: AdminDeps): RouteSpec[] {
  return [];
}
