import type { Context } from 'koa';

/**
 * Answers a compatible intake's failure in its own shape (src/integrations/<name>/intake.ts),
 * with the status and headers (Retry-After) the ingest listener would have used; a 5xx is left
 * for the request log to record (it tells the sender nothing more).
 */
export function answerIntakeFailure(ctx: Context, err: unknown, status: number, headers: Record<string, string>, body: unknown): void {
  ctx.status = status;
  for (const [k, v] of Object.entries(headers)) ctx.set(k, v);
  ctx.body = body;
  if (status >= 500) ctx.state.error = err;
}
