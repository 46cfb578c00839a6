import type { IncidentDeps } from '../../src/services/incident';
import type { RouteSpec } from '../http/route-spec';

/** /v1/alerts (spec surface c): list, read, acknowledge, resolve. */
export function alertRoutes(_deps: IncidentDeps): RouteSpec[] {
  return [];
}
