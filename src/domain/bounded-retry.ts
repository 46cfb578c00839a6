/**
 * How a write a caller waits on retries within a time budget. Pure, no clocks: the incident
 * workflow uses it for a lifecycle Update's projection write. A local activity's
 * scheduleToCloseTimeout is not enforced by the SDK's core (its retries went on for a minute in
 * our test), so the bound is built from what is: a number of attempts, each with its own timeout,
 * and the fixed waits between them.
 */

/** Waits between attempts: the first, growing ×2, at most the last. */
export const RETRY_WAITS = { initialMs: 250, coefficient: 2, maximumMs: 1_000 } as const;
/** The most attempts a plan makes (a brief blip is ridden out, a long outage fails fast). */
export const MAX_ATTEMPTS = 4;
/** An attempt shorter than this cannot do a write; a longer one is never needed. */
export const MIN_ATTEMPT_MS = 200;
export const MAX_ATTEMPT_MS = 2_000;

/** A retry policy whose worst case (every attempt timing out) ends within the budget. */
export interface BoundedRetry {
  attempts: number;
  attemptTimeoutMs: number;
}

/** Sum of the waits before attempts 2..n. */
export function waitsBefore(attempts: number): number {
  let total = 0;
  for (let i = 0; i < attempts - 1; i++) total += Math.min(RETRY_WAITS.initialMs * RETRY_WAITS.coefficient ** i, RETRY_WAITS.maximumMs);
  return total;
}

/**
 * The most attempts (up to MAX_ATTEMPTS) that fit `budgetMs` with each attempt given at least
 * MIN_ATTEMPT_MS, and the timeout each gets; undefined when not even one attempt fits.
 */
export function boundedRetry(budgetMs: number): BoundedRetry | undefined {
  for (let attempts = MAX_ATTEMPTS; attempts >= 1; attempts--) {
    const perAttempt = Math.floor((budgetMs - waitsBefore(attempts)) / attempts);
    if (perAttempt >= MIN_ATTEMPT_MS) return { attempts, attemptTimeoutMs: Math.min(perAttempt, MAX_ATTEMPT_MS) };
  }
  return undefined;
}
