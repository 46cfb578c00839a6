import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import Router from '@koa/router';
import { authorizeAccess, customerAuth } from './auth';
import { customerV1Routes, type CustomerV1Deps } from './routes';
import { ErrorSchema } from './schemas';
import { mountRoutes, registerRoutes } from '../http/route-spec';

export const CUSTOMER_V1_PREFIX = '/api/v1';

/** The OpenAPI 3.1 document of the customer API, generated from the routes' own zod schemas. */
export function customerV1OpenApi(deps: CustomerV1Deps, serverUrl: string) {
  const registry = new OpenAPIRegistry();
  const bearer = registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'Customer API token (READ_ONLY or READ_WRITE), at most 30 days',
  });
  registerRoutes(registry, '', customerV1Routes(deps), { errorSchema: ErrorSchema, security: [{ [bearer.name]: [] }] });
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'Klaxon customer API', version: '1.0.0', description: 'Workspace automation: incidents, services, monitors.' },
    servers: [{ url: serverUrl + CUSTOMER_V1_PREFIX }],
  });
}

/** Router for /api/v1: the OpenAPI document is public, everything else needs a token. */
export function createCustomerV1Router(deps: CustomerV1Deps & { appUrl: string }): Router {
  const router = new Router({ prefix: CUSTOMER_V1_PREFIX });
  const document = customerV1OpenApi(deps, deps.appUrl);
  router.get('/openapi.json', (ctx) => {
    ctx.state.routePattern = '/openapi.json';
    ctx.body = document;
  });
  mountRoutes(router, customerV1Routes(deps), { prefix: CUSTOMER_V1_PREFIX, before: [customerAuth(deps)], authorize: authorizeAccess });
  return router;
}
