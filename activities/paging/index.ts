import { createPagingPlanActivities } from './plan';
import { createPagingSendActivities, type PagingSendDeps } from './send';
import { createFailoverActivities } from './failover';

/** Everything the incident workflow's escalation calls: who to page, and paging them. */
export function createPagingActivities(deps: PagingSendDeps) {
  return { ...createPagingPlanActivities(deps), ...createPagingSendActivities(deps), ...createFailoverActivities(deps) };
}
