import { condition, continueAsNew, proxyActivities, setHandler } from '@temporalio/workflow';
import type { createHeartbeatActivities } from '../../activities/heartbeats';
import { heartbeatPauseSignal, heartbeatPingSignal, heartbeatStateQuery, type HeartbeatWorkflowInput } from '../../src/contracts/workflows';

const activities = proxyActivities<ReturnType<typeof createHeartbeatActivities>>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds' },
});

/** Check-in windows watched per run before continueAsNew keeps the history short. */
const WINDOWS_PER_RUN = 500;

/**
 * One workflow per heartbeat: a durable timer of period + grace, restarted by every ping. A
 * missed window opens an incident on the owning service; the next ping resolves it.
 */
export async function heartbeatWorkflow(input: HeartbeatWorkflowInput): Promise<void> {
  let { paused, missedIncidentId } = input;
  let pinged = false;
  let pings = 0;
  setHandler(heartbeatPingSignal, () => {
    pinged = true;
    pings++;
  });
  setHandler(heartbeatPauseSignal, ({ paused: p }) => {
    paused = p;
  });
  setHandler(heartbeatStateQuery, () => ({ paused, missedIncidentId, pings }));

  for (let window = 0; window < WINDOWS_PER_RUN; window++) {
    if (pinged && missedIncidentId) {
      await activities.resolveMissedHeartbeat({ heartbeatId: input.heartbeatId });
      missedIncidentId = null;
    }
    pinged = false;
    if (paused) {
      await condition(() => !paused);
      continue; // resuming starts a fresh window
    }
    const windowMs = (input.periodSeconds + input.graceSeconds) * 1000;
    if (await condition(() => pinged || paused, windowMs)) continue;
    if (!missedIncidentId) missedIncidentId = await activities.openMissedHeartbeat({ heartbeatId: input.heartbeatId });
    await condition(() => pinged || paused);
  }
  await continueAsNew<typeof heartbeatWorkflow>({ ...input, paused, missedIncidentId });
}
