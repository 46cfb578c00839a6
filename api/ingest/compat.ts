import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { CompatSource, Ingestion } from '../../src/services/ingest';
import type { SourceCallStats } from '../../src/services/ingest/call-stats';
import { intakeRoutes } from '../../src/integrations/wiring';
import type { IntakeDeps } from '../../src/integrations/types';
import { HttpError, toErrorBody } from '../http/customer-errors';
import { ingestBody } from './body';

/** What the compatible intakes need from the ingest listener (docs/compat-intake.md). */
export interface CompatDeps {
  /** The one ingestion of the ingest listener: same group commit, idempotency and quota as Form A. */
  ingestion: Ingestion;
  findSource: IntakeDeps['findSource'];
  createdAlert: IntakeDeps['createdAlert'];
  /** The per-source rate limit Form A uses, keyed by the source's token hash. */
  rateLimit: { take(key: string): Promise<void> };
  /** Counts every call a source's key named, by its answer (webhook statistics). */
  stats: SourceCallStats;
}

/**
 * Every registry module's compatible intake (PagerDuty's Events API v2, Opsgenie's Alert API v2,
 * …) on the ingest listener: under a source's ingestion URL (`{ingest_url}/v2/enqueue`), and at
 * the listener's root, so a sender changes only the host (`events.pagerduty.com/v2/enqueue`).
 */
export function createCompatRouter(deps: CompatDeps): Router {
  const router = new Router();
  intakeRoutes(router, {
    ingestion: deps.ingestion,
    findSource: deps.findSource,
    createdAlert: deps.createdAlert,
    routePattern,
    jsonBody,
    forSource: (ctx, source, handle) => forSource(ctx, deps, source, handle),
    idempotencyKeyOf,
    errorAnswer: toErrorBody,
  });
  return router;
}

/**
 * Names the route for the request log before anything else runs (never the raw URL: it holds
 * the ingestion secret, and the path the alert's alias) and starts the clock of Opsgenie's `took`.
 */
const routePattern =
  (pattern: string): Middleware =>
  async (ctx, next) => {
    ctx.state.routePattern = pattern;
    ctx.state.startedAt = performance.now();
    await next();
  };

/** A JSON body (or JSON sent as text/plain), at most 512 KiB, read as Form A's is. */
const jsonBody: Middleware[] = [
  async (ctx, next) => {
    // No body at all (a close without one) is an empty object; a body must say it is JSON.
    const hasBody = Boolean(ctx.request.length || ctx.get('Transfer-Encoding'));
    if (hasBody && !ctx.is('application/json', 'text/plain')) throw new HttpError(415, 'events must be JSON (Content-Type: application/json)');
    await next();
  },
  ingestBody(),
];

/**
 * Runs a handler for the source a key named: rate-limited as the source's Form A calls are, and
 * counted in its statistics whatever the answer (a key naming no source counts nowhere).
 */
async function forSource(ctx: Context, deps: CompatDeps, source: CompatSource | undefined, handle: () => Promise<void>): Promise<void> {
  if (!source) return handle();
  try {
    await deps.rateLimit.take(source.tokenHash);
    await handle();
    deps.stats.countByHash(source.tokenHash, ctx.status < 300);
  } catch (err) {
    deps.stats.countByHash(source.tokenHash, false);
    throw err;
  }
}

/** The request's Idempotency-Key, if any (checked by the ingestion: 1 to 255 characters). */
const idempotencyKeyOf = (ctx: Context): string | undefined => ctx.get('Idempotency-Key') || undefined;
