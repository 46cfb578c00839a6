import type { RouteSpec } from '../../http/route-spec';
import type { AdminDeps } from '../admin-kit';
import { heartbeatsRoutes } from './heartbeats';
import { servicesRoutes } from './services';
import { sourcesRoutes } from './sources';

/** Services, alert sources and heartbeats under /api. */
export function catalogRoutes(deps: AdminDeps): RouteSpec[] {
  return [...servicesRoutes(deps), ...sourcesRoutes(deps), ...heartbeatsRoutes(deps)];
}
