import { isCancellation, proxyActivities, sleep, uuid4 } from '@temporalio/workflow';
import type { createDrillActivities } from '../../activities/drills';
import { RETRY_ATTEMPT_TIMEOUT_MS } from '../../src/domain/paging/attempt-timeouts';
import type { DrillWorkflowInput, OpenedDrillInput } from '../../src/contracts/workflows';

type DrillActivities = ReturnType<typeof createDrillActivities>;

// Like a page's retries, fewer: a drill that cannot get through within about a minute has its answer.
const send = proxyActivities<DrillActivities>({
  startToCloseTimeout: RETRY_ATTEMPT_TIMEOUT_MS,
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '15 seconds', maximumAttempts: 5 },
});
const bookkeeping = proxyActivities<DrillActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 10 },
});

const messageOf = (err: unknown): string => {
  const cause = err instanceof Error && 'cause' in err && err.cause instanceof Error ? err.cause : err;
  return cause instanceof Error ? cause.message : String(cause);
};

/**
 * A paging drill (docs/drills.md): one send activity per person × channel, all at once, then a
 * timer for the acknowledgement window; the drill is finished when it fires. No incident, no
 * timeline. Started by the API (`drill-<id>`) or by a recurring drill's Temporal Schedule.
 */
export async function drillWorkflow(input: DrillWorkflowInput): Promise<{ drillId: string | null }> {
  // The drill's id is chosen here (deterministic): a retried open finds the drill it already wrote.
  const drill: OpenedDrillInput | null =
    'drillScheduleId' in input ? await bookkeeping.openScheduledDrill({ drillScheduleId: input.drillScheduleId, drillId: uuid4() }) : input;
  if (!drill) return { drillId: null }; // the recurring drill was deleted meanwhile
  await Promise.all(
    drill.resultIds.map(async (resultId) => {
      try {
        await send.sendDrillPage(resultId);
      } catch (err) {
        if (isCancellation(err)) throw err;
        await bookkeeping.recordDrillPageFailed({ resultId, reason: messageOf(err) });
      }
    }),
  );
  await sleep(drill.ackWindowSeconds * 1000);
  await bookkeeping.finishDrill(drill.drillId);
  return { drillId: drill.drillId };
}
