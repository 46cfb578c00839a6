import { ActivityFailure, condition, continueAsNew, proxyActivities, setHandler, uuid4 } from '@temporalio/workflow';
import type { createMonitorActivities } from '../../activities/monitors';
import { monitorPauseSignal, monitorScheduleSignal, monitorStateQuery, type MonitorWorkflowInput } from '../../src/contracts/workflows';

type MonitorActivities = ReturnType<typeof createMonitorActivities>;

/** Checks per run before continueAsNew keeps the history short (about 8 events each). */
const CHECKS_PER_RUN = 500;
/** Time a check may take beyond its own timeout: resolving, recording and opening or resolving the incident. */
const MARGIN_SECONDS = 15;

/**
 * The check activity, for a timeout. A failed check is a result, not an activity failure: only
 * a broken recording (Postgres away) fails, and is retried a few times before the workflow skips
 * to the next interval, so a retry never hides a failed check nor runs one forever.
 */
const checker = (timeoutSeconds: number) =>
  proxyActivities<MonitorActivities>({
    startToCloseTimeout: `${timeoutSeconds + MARGIN_SECONDS} seconds`,
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 3 },
  });

/**
 * One workflow per HTTP monitor: a check, then a durable timer of the interval, over and over.
 * The check activity records the result and opens or resolves the monitor's incident; pausing
 * stops the checks, resuming checks at once, a new schedule re-arms the timer. It ends when the
 * monitor is gone (deleted with its service) — a deleted monitor's workflow is terminated.
 */
export async function monitorWorkflow(input: MonitorWorkflowInput): Promise<void> {
  let { intervalSeconds, timeoutSeconds, paused } = input;
  let checks = 0;
  let woken = false;
  setHandler(monitorScheduleSignal, (s) => {
    ({ intervalSeconds, timeoutSeconds } = s);
    woken = true;
  });
  setHandler(monitorPauseSignal, (p) => {
    paused = p.paused;
    woken = true;
  });
  setHandler(monitorStateQuery, () => ({ paused, intervalSeconds, timeoutSeconds, checks }));

  while (checks < (input.checksPerRun ?? CHECKS_PER_RUN)) {
    if (paused) {
      await condition(() => !paused);
      continue; // resuming checks at once
    }
    const checkedAt = Date.now();
    try {
      const result = await checker(timeoutSeconds).checkMonitor({ monitorId: input.monitorId, checkId: uuid4() });
      if (result.outcome === 'gone') return;
    } catch (err) {
      if (!(err instanceof ActivityFailure)) throw err; // recording failed every attempt: try again next interval
    }
    checks++;
    // The next check is due one interval after this one began; a new schedule moves it, a pause stops it.
    for (;;) {
      woken = false;
      const waitMs = checkedAt + intervalSeconds * 1000 - Date.now();
      if (paused || waitMs <= 0 || !(await condition(() => woken, waitMs))) break;
    }
  }
  await continueAsNew<typeof monitorWorkflow>({ ...input, intervalSeconds, timeoutSeconds, paused });
}
