import { randomUUID } from 'node:crypto';
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { isUuid } from '../../domain/ids';
import type { IngestItem } from '../../domain/ingest/plan';
import type { CompatSource } from '../../services/ingest';
import { answerIntakeFailure } from '../intake-answer';
import type { Intake, IntakeDeps } from '../types';
import { genieKeyOf, parseAlertAction, parseCreateAlert, parseIdentifierType, type AlertApiRefusal } from './alert-api';

/**
 * Opsgenie's Alert API v2 (docs/compat-intake.md), with `Authorization: GenieKey <routing key>`:
 * create (`POST /v2/alerts`), close and acknowledge (`POST /v2/alerts/{identifier}/close|acknowledge`,
 * `identifierType` id or alias) and the request status of a create. At the listener's root, and
 * under an ingestion URL (Opsgenie's API URL is then `{ingest_url}/`), where the key must name a
 * source of the URL's workspace. Answered as Opsgenie answers: 202 "Request will be processed".
 */
export const opsgenieIntake: Intake = { routes: opsgenieAlertRoutes };

function opsgenieAlertRoutes(router: Router, deps: IntakeDeps): void {
  const { routePattern, jsonBody } = deps;
  for (const [prefix, logged] of [
    ['', ''],
    ['/:token', '/{webhook_token}'],
  ] as const) {
    const token = (ctx: Context): string | undefined => (prefix ? ctx.params.token : undefined);
    router.post(`${prefix}/v2/alerts`, routePattern(`${logged}/v2/alerts`), opsgenieErrors(deps), ...jsonBody, (ctx) =>
      withSource(ctx, deps, token(ctx), (source) => create(ctx, deps, source)),
    );
    for (const action of ['close', 'acknowledge'] as const) {
      router.post(
        `${prefix}/v2/alerts/:identifier/${action}`,
        routePattern(`${logged}/v2/alerts/{identifier}/${action}`),
        opsgenieErrors(deps),
        ...jsonBody,
        (ctx) => withSource(ctx, deps, token(ctx), (source) => act(ctx, deps, source, action)),
      );
    }
    router.get(`${prefix}/v2/alerts/requests/:requestId`, routePattern(`${logged}/v2/alerts/requests/{requestId}`), opsgenieErrors(deps), (ctx) =>
      withSource(ctx, deps, token(ctx), (source) => requestStatus(ctx, deps, source)),
    );
  }
}

/** The source the GenieKey names, rate-limited and counted; 401 when there is none. */
async function withSource(ctx: Context, deps: IntakeDeps, urlSecret: string | undefined, handle: (source: CompatSource) => Promise<void>): Promise<void> {
  const key = genieKeyOf(ctx.get('Authorization') || undefined);
  const source = key === undefined ? undefined : await deps.findSource({ routingKey: key, urlSecret });
  if (!source) {
    ctx.status = 401;
    ctx.body = opsgenieError(ctx, COULD_NOT_AUTHENTICATE);
    return;
  }
  await deps.forSource(ctx, source, () => handle(source));
}

async function create(ctx: Context, deps: IntakeDeps, source: CompatSource): Promise<void> {
  const parsed = parseCreateAlert(ctx.request.body);
  if (!parsed.ok) return refuse(ctx, parsed);
  await commit(ctx, deps, source, parsed.item, { api: 'opsgenie-alert-api', op: 'create', body: ctx.request.body });
}

async function act(ctx: Context, deps: IntakeDeps, source: CompatSource, action: 'close' | 'acknowledge'): Promise<void> {
  const type = parseIdentifierType(ctx.query.identifierType);
  if (!type.ok) return refuse(ctx, type);
  const parsed = parseAlertAction(action, ctx.params.identifier, type.type, ctx.request.body);
  if (!parsed.ok) return refuse(ctx, parsed);
  const request = { api: 'opsgenie-alert-api', op: action, identifier: ctx.params.identifier, identifierType: type.type, body: ctx.request.body };
  await commit(ctx, deps, source, parsed.item, request);
}

/** One item through the ingestion's idempotency and group commit; the request id is its event id. */
async function commit(ctx: Context, deps: IntakeDeps, source: CompatSource, item: IngestItem, request: unknown): Promise<void> {
  const answer = await deps.ingestion.ingestItems({
    tokenHash: source.tokenHash,
    items: [item],
    fingerprintOf: request,
    idempotencyKey: deps.idempotencyKeyOf(ctx),
  });
  ctx.status = 202;
  ctx.body = opsgenieAccepted(ctx, answer.event_id!);
}

/**
 * Opsgenie's request status, for creates (a request id is the alert's id): close and acknowledge
 * leave no alert to report, and answer 404 as an unknown request does.
 */
async function requestStatus(ctx: Context, deps: IntakeDeps, source: CompatSource): Promise<void> {
  const requestId = ctx.params.requestId;
  const alert = isUuid(requestId) ? await deps.createdAlert(source.id, requestId.toLowerCase()) : undefined;
  if (!alert) {
    ctx.status = 404;
    ctx.body = opsgenieError(ctx, `Request with id [${requestId.slice(0, 64)}] does not exist or is not a create`);
    return;
  }
  ctx.status = 200;
  const data = {
    success: true,
    action: 'Create',
    processedAt: alert.createdAt.toISOString(),
    integrationId: source.id,
    isSuccess: true,
    status: 'Created alert',
    alertId: alert.id,
    // Opsgenie names an alert created without an alias by its id.
    alias: alert.alias ?? alert.id,
  };
  ctx.body = opsgenieData(ctx, data, alert.id);
}

function refuse(ctx: Context, refusal: AlertApiRefusal): void {
  ctx.status = 422;
  ctx.body = opsgenieError(ctx, refusal.message, refusal.errors);
}

/** Opsgenie's answer to an accepted request: `requestId` is the Klaxon event id. */
const opsgenieAccepted = (ctx: Context, requestId: string) => ({ result: 'Request will be processed', took: tookOf(ctx), requestId });

/** Opsgenie's answer carrying data (a request status). */
const opsgenieData = (ctx: Context, data: Record<string, unknown>, requestId: string) => ({ data, took: tookOf(ctx), requestId });

/** Opsgenie's error body; a 422 says each field's problem in `errors`. */
const opsgenieError = (ctx: Context, message: string, errors?: Record<string, string>) => ({
  message,
  ...(errors ? { errors } : {}),
  took: tookOf(ctx),
  requestId: randomUUID(),
});

/** Opsgenie's words for a missing or unknown key. */
const COULD_NOT_AUTHENTICATE = 'Could not authenticate';

/**
 * Failures in Opsgenie's shape, `{message, took, requestId}`: a rate limit, a paused source, the
 * plan's quota, Postgres away … with the status and headers the ingest listener answers them with.
 */
function opsgenieErrors(deps: IntakeDeps): Middleware {
  return async (ctx, next) => {
    ctx.state.startedAt ??= performance.now();
    try {
      await next();
    } catch (err) {
      const { status, body, headers } = deps.errorAnswer(err);
      // The source went between lookup and commit: as an unknown key.
      if (status === 404) return answerIntakeFailure(ctx, err, 401, {}, opsgenieError(ctx, COULD_NOT_AUTHENTICATE));
      answerIntakeFailure(ctx, err, status, headers, opsgenieError(ctx, body.message));
    }
  };
}

/** Seconds since the request started, as Opsgenie's `took` (0.012). */
const tookOf = (ctx: Context): number => Math.round(performance.now() - ((ctx.state.startedAt as number | undefined) ?? performance.now())) / 1000;
