import { ActivityFailure, ApplicationFailure, patched, proxyLocalActivities } from '@temporalio/workflow';
import type { createProjectionActivities } from '../../activities/projections';
import { boundedRetry, RETRY_WAITS } from '../../src/domain/bounded-retry';
import { INCIDENT_STORE_UNAVAILABLE } from '../../src/contracts/workflows';

type ProjectionActivities = ReturnType<typeof createProjectionActivities>;

/** Patch id recorded in histories: never rename. Since it, a lifecycle Update's write has a budget. */
export const UPDATE_WRITE_BUDGET_PATCH = 'update-write-budget';
/** The longest an Update spends on its write, waiting for its turn included. */
const BUDGET_MS = 5_000;
/** Kept free before the caller's `answerBy`, for the answer to travel back. */
const ANSWER_MARGIN_MS = 1_000;

const storeUnavailable = (why: string) =>
  ApplicationFailure.create({
    type: INCIDENT_STORE_UNAVAILABLE,
    message: `the incident could not be written in time (${why}); nothing moved`,
    nonRetryable: true,
  });

/**
 * The time a lifecycle Update may spend on its projection write. A caller is waiting (the API
 * answers 503 at its deadline), so unlike signal- and timer-driven writes, which retry until
 * Postgres is back, it gives up in time: the Update fails with IncidentStoreUnavailable and,
 * since a move is written before it is adopted, the state stays as it was. Workflow time only.
 */
export class UpdateWriteBudget {
  private constructor(private readonly until: number) {}

  /** Taken as the Update's handler starts; undefined on runs recorded before the patch. */
  static start(answerBy: string | undefined): UpdateWriteBudget | undefined {
    if (!patched(UPDATE_WRITE_BUDGET_PATCH)) return undefined;
    const callerLimit = answerBy === undefined ? NaN : Date.parse(answerBy) - ANSWER_MARGIN_MS;
    const own = Date.now() + BUDGET_MS;
    return new UpdateWriteBudget(Number.isNaN(callerLimit) ? own : Math.min(own, callerLimit));
  }

  /** The projection writer for what is left of the budget; fails the Update when nothing is. */
  writer(): ProjectionActivities {
    const plan = boundedRetry(this.until - Date.now());
    if (!plan) throw storeUnavailable('it waited too long for its turn');
    return proxyLocalActivities<ProjectionActivities>({
      startToCloseTimeout: plan.attemptTimeoutMs,
      retry: {
        initialInterval: RETRY_WAITS.initialMs,
        backoffCoefficient: RETRY_WAITS.coefficient,
        maximumInterval: RETRY_WAITS.maximumMs,
        maximumAttempts: plan.attempts,
      },
    });
  }

  /**
   * A write that ran out of attempts, as the failure the API maps to 503; a permanent one (no
   * such incident) as it is. A local activity's last failure may arrive bare or as a cause.
   */
  static explain(err: unknown): unknown {
    const inner = err instanceof ActivityFailure ? err.cause : err;
    return inner instanceof ApplicationFailure && inner.nonRetryable ? err : storeUnavailable('the database did not answer');
  }
}
