import type { RouteSpec } from '../../http/route-spec';
import type { AdminDeps } from '../admin-kit';
import { groupingRoutes } from './grouping';
import { heartbeatsRoutes } from './heartbeats';
import { servicesRoutes } from './services';
import { sourcesRoutes } from './sources';

/** Services, alert sources, heartbeats and grouping rules under /api. */
export function catalogRoutes(deps: AdminDeps): RouteSpec[] {
  return [...servicesRoutes(deps), ...sourcesRoutes(deps), ...heartbeatsRoutes(deps), ...groupingRoutes(deps)];
}
