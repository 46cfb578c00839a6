/**
 * The one place that tells an outage from a failure: an error that means Postgres or Temporal is
 * away (the caller should retry shortly; every surface answers 503 with Retry-After) rather than
 * a bad request or a bug.
 */
import { isGrpcServiceError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { isDatabaseUnavailable } from '../db/knex';
import { TemporalDeadlineError } from '../temporal/deadline';
import { INCIDENT_STORE_UNAVAILABLE } from '../contracts/workflows';

/** Which dependency is away. */
export type Outage = 'database' | 'temporal';

/** What a surface puts in `Retry-After` when a dependency is away. */
export const RETRY_AFTER_SECONDS = 5;

/** gRPC codes of a Temporal that cannot be reached, or did not answer in time. */
const GRPC_UNAVAILABLE = 14;
const GRPC_DEADLINE_EXCEEDED = 4;

/** Causes of an error, outermost first (wrappers keep the gRPC or Postgres error as `cause`). */
function* causes(err: unknown): Generator<unknown> {
  for (let e = err, depth = 0; e !== undefined && e !== null && depth < 8; e = (e as { cause?: unknown }).cause, depth++) yield e;
}

/** The dependency `err` says is away, or undefined when it is some other failure. */
export function outageOf(err: unknown): Outage | undefined {
  for (const e of causes(err)) {
    if (e instanceof TemporalDeadlineError || e instanceof WorkflowUpdateRPCTimeoutOrCancelledError) return 'temporal';
    if (isGrpcServiceError(e) && (e.code === GRPC_UNAVAILABLE || e.code === GRPC_DEADLINE_EXCEEDED)) return 'temporal';
    // The incident workflow gave up on a projection write a caller was waiting on.
    if (e instanceof ApplicationFailure && e.type === INCIDENT_STORE_UNAVAILABLE) return 'database';
  }
  // Last: its message test is loose (any "timeout"), and Temporal's errors are more precise.
  return isDatabaseUnavailable(err) || [...causes(err)].slice(1).some(isDatabaseUnavailable) ? 'database' : undefined;
}

/** What a caller is told, without internals: which part is away and when to retry. */
export function outageMessage(outage: Outage): string {
  const what = outage === 'database' ? 'the database' : 'the workflow service (Temporal)';
  return `Klaxon is temporarily unavailable: ${what} cannot be reached; retry in ${RETRY_AFTER_SECONDS} s`;
}
