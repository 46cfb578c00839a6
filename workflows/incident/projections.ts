import { patched, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { createProjectionActivities } from '../../activities/projections';

type ProjectionActivities = ReturnType<typeof createProjectionActivities>;

const RETRY = { initialInterval: '100 milliseconds', backoffCoefficient: 2, maximumInterval: '5 seconds' } as const;

const remote = proxyActivities<ProjectionActivities>({ startToCloseTimeout: '10 seconds', retry: RETRY });
const local = proxyLocalActivities<ProjectionActivities>({ startToCloseTimeout: '10 seconds', retry: RETRY });

/** Patch id recorded in histories: never rename. */
export const LOCAL_PROJECTIONS_PATCH = 'projection-local-activity';

/**
 * The projection writer. Since the patch, a local activity: the write runs inside the workflow
 * task, so an update costs one workflow task instead of three server round trips (workflow task,
 * activity task, workflow task). Histories from before the patch replay with remote activities.
 */
export function projections(): ProjectionActivities {
  return patched(LOCAL_PROJECTIONS_PATCH) ? local : remote;
}
