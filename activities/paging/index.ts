import { createPagingPlanActivities } from './plan';
import { createPagingSendActivities, type PagingSendDeps } from './send';

/** Everything the incident workflow's escalation calls: who to page, and paging them. */
export function createPagingActivities(deps: PagingSendDeps) {
  return { ...createPagingPlanActivities(deps), ...createPagingSendActivities(deps) };
}
