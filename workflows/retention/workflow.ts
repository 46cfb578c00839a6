import { proxyActivities } from '@temporalio/workflow';
import type { createRetentionActivities } from '../../activities/retention';
import { addPurgeCounts, noPurgeCounts, type PurgeCounts } from '../../src/domain/purge-counts';
import type { RetentionWorkflowInput } from '../../src/contracts/workflows';

const { purgeExpired } = proxyActivities<ReturnType<typeof createRetentionActivities>>({
  // A pass stops starting statements after 60 s; one statement deletes at most 1,000 rows.
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '2 minutes', maximumAttempts: 5 },
});

/** Passes per run: about an hour of deleting at most; the next scheduled run carries on. */
const DEFAULT_MAX_PASSES = 60;

/**
 * One retention run, started hourly by the `klaxon-retention` Schedule (docs/architecture.md, "Retention"): purge
 * passes until nothing expired is left. Answers the rows deleted per table.
 */
export async function retentionWorkflow(input: RetentionWorkflowInput = {}): Promise<PurgeCounts> {
  let deleted = noPurgeCounts();
  for (let pass = 0; pass < (input.maxPasses ?? DEFAULT_MAX_PASSES); pass++) {
    const result = await purgeExpired();
    deleted = addPurgeCounts(deleted, result.deleted);
    if (result.finished) break;
  }
  return deleted;
}
