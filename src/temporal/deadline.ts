import type { Client } from '@temporalio/client';

/**
 * How long a request path waits on a Temporal start or signal before it answers 503. The client
 * retries an unreachable server with backoff for about 15 s on its own; a caller should hear
 * sooner that it must retry.
 */
export const TEMPORAL_CALL_MS = 5_000;

/**
 * How long a request path waits on a lifecycle Update: above the workflow's own budget for the
 * Update's projection write (workflows/incident/update-writes.ts, 5 s), so a failure the
 * workflow reports arrives before the deadline cuts the call; and above a workflow task's
 * heartbeat (8 s of its 10 s timeout): an Update that arrives while a page's local activity is
 * still with its provider reaches the workflow only then, and an acknowledge must still land.
 */
export const TEMPORAL_UPDATE_MS = 15_000;

/** Temporal did not answer within a request's deadline: it is away or not serving us. */
export class TemporalDeadlineError extends Error {
  constructor(ms: number, options?: { cause?: unknown }) {
    super(`Temporal did not answer within ${ms} ms`, options);
    this.name = 'TemporalDeadlineError';
  }
}

/**
 * Runs `fn`'s Temporal calls under a deadline nothing inside can extend: a gRPC deadline for the
 * calls, and an abort at the same moment for code that sets a later deadline of its own (the
 * relay's delivery does). So a request never hangs on Temporal.
 */
export async function withinDeadline<T>(client: Client, ms: number, fn: () => Promise<T>): Promise<T> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), ms);
  try {
    return await client.withDeadline(Date.now() + ms, () => client.withAbortSignal(abort.signal, fn));
  } catch (err) {
    if (abort.signal.aborted) throw new TemporalDeadlineError(ms, { cause: err });
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
