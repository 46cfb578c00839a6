import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { registerRoutes, type RouteSpec } from '../http/route-spec';
import { EnvelopeErrorSchema } from '../api-key/schemas';
import { DASHBOARD_PREFIX } from './prefix';

/**
 * The OpenAPI 3.1 document of the dashboard's /api, generated from the routes' own zod schemas
 *.
 */
export function dashboardOpenApi(appUrl: string, routes: { session: RouteSpec[]; open: RouteSpec[] }) {
  const registry = new OpenAPIRegistry();
  const cookie = registry.registerComponent('securitySchemes', 'session', {
    type: 'apiKey',
    in: 'cookie',
    name: '__Host-klaxon_session',
    description: 'The session cookie set by POST /api/auth/login. State-changing requests also send the session’s csrf_token in X-CSRF-Token.',
  });
  registerRoutes(registry, DASHBOARD_PREFIX, routes.open, { errorSchema: EnvelopeErrorSchema, security: [] });
  registerRoutes(registry, DASHBOARD_PREFIX, routes.session, { errorSchema: EnvelopeErrorSchema, security: [{ [cookie.name]: [] }] });
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Klaxon dashboard API',
      version: '1.0.0',
      description:
        'The JSON routes the web dashboard uses: accounts, sessions and workspace administration. Session cookie and X-CSRF-Token (docs/architecture.md, "Workspaces, roles and credentials").',
    },
    servers: [{ url: appUrl }],
  });
}
