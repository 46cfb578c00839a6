import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import Router from '@koa/router';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { ParameterizedContext } from 'koa';
import type { InboundWebhookDeps } from '../../src/services/inbound-webhooks';
import { mountRoutes, registerRoutes, type RouteSpec } from '../http/route-spec';
import { refuseStakeholderWrites } from '../http/read-only-roles';
import { apiKeyAuth, keyPrincipalOf } from './auth';
import { envelopeSuccess } from './envelope';
import { FormBBody, EnvelopeErrorSchema, ReceivedSchema, WebhookIdParams } from './schemas';
import { inboundWebhookRoutes } from './inbound-webhook-routes';

export const API_KEY_V1_PREFIX = '/v1';

export interface ApiKeyV1Deps extends InboundWebhookDeps {
  orm: MikroORM;
  /** More /v1 routes (alerts, users), each built over its own dependencies. */
  extraRoutes?: RouteSpec[];
  rateLimitPerKey: (ctx: ParameterizedContext, keyId: string) => Promise<void>;
}

const routesOf = (deps: ApiKeyV1Deps) => [...inboundWebhookRoutes(deps), ...(deps.extraRoutes ?? [])];

/** The OpenAPI 3.1 document of the API-key surface, generated from the routes' own zod schemas. */
export function apiKeyOpenApi(deps: ApiKeyV1Deps, serverUrl: string) {
  const registry = new OpenAPIRegistry();
  const bearer = registry.registerComponent('securitySchemes', 'apiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'API key (klxk_…), from `klaxon apikey create`',
  });
  registerRoutes(registry, API_KEY_V1_PREFIX, routesOf(deps), { errorSchema: EnvelopeErrorSchema, security: [{ [bearer.name]: [] }] });
  registry.registerPath({
    method: 'post',
    path: '/webhook/{webhook_id}',
    summary: 'Send an alert to a webhook (Form B or a native payload); signed with X-Service-Signature when the webhook has a secret',
    operationId: 'sendWebhookAlert',
    request: {
      params: WebhookIdParams,
      headers: [],
      body: { required: true, content: { 'application/json': { schema: FormBBody } } },
    },
    responses: {
      202: { description: 'stored', content: { 'application/json': { schema: ReceivedSchema } } },
      200: { description: 'an Idempotency-Key replay: nothing new stored', content: { 'application/json': { schema: ReceivedSchema } } },
      ...Object.fromEntries(
        [
          [400, 'invalid body'],
          [401, 'missing or wrong X-Service-Signature'],
          [403, 'sender address outside the webhook’s IP allowlist, or plain HTTP'],
          [404, 'unknown or deleted webhook'],
          [409, 'Idempotency-Key reused with a different payload'],
          [423, 'the webhook is paused: nothing stored'],
          [429, 'rate limit exceeded for this webhook'],
        ].map(([status, description]) => [status, { description, content: { 'application/json': { schema: EnvelopeErrorSchema } } }]),
      ),
    },
  });
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'Klaxon API-key surface', version: '1.0.0', description: 'Webhooks, their Form B receiver, alerts and users, with an API key.' },
    servers: [{ url: serverUrl }],
  });
}

/** Router for /v1: the OpenAPI document is public, everything else needs an API key. */
export function createApiKeyV1Router(deps: ApiKeyV1Deps & { apiKeyUrl: string }): Router {
  const router = new Router({ prefix: API_KEY_V1_PREFIX });
  const document = apiKeyOpenApi(deps, deps.apiKeyUrl);
  router.get('/openapi.json', (ctx) => {
    ctx.state.routePattern = '/v1/openapi.json';
    ctx.body = document;
  });
  mountRoutes(router, routesOf(deps), {
    prefix: API_KEY_V1_PREFIX,
    before: [apiKeyAuth({ orm: deps.orm, rateLimit: deps.rateLimitPerKey })],
    // A Stakeholder's key reads; of the writes, only their own profile (PUT /v1/users/me).
    authorize: refuseStakeholderWrites(
      (ctx) => keyPrincipalOf(ctx).role,
      (pattern) => pattern === `${API_KEY_V1_PREFIX}/users/me`,
    ),
    body: envelopeSuccess,
  });
  return router;
}
