import Router from '@koa/router';
import { mountRoutes } from '../http/route-spec';
import { envelopeSuccess } from '../api-key/envelope';
import { requireSession, sameOrigin } from './guards';
import { dashboardOpenApi } from './openapi';
import { DASHBOARD_PREFIX } from './prefix';
import { authRoutes, type AuthDeps } from './routes/auth';
import { publicRoutes, sessionRoutes } from './routes';

export { DASHBOARD_PREFIX } from './prefix';

export type DashboardDeps = AuthDeps;

/**
 * The dashboard's JSON routes under /api (docs/architecture.md, "Workspaces, roles and credentials"): accounts, sessions and workspace
 * administration, each described once as a zod RouteSpec (validation and /api/openapi.json).
 * Errors are answered in the dashboard envelope by the listener (api/app.ts).
 */
export function createDashboardRouter(deps: DashboardDeps): Router {
  const router = new Router({ prefix: DASHBOARD_PREFIX });
  const origin = sameOrigin(deps.appUrl);
  const session = requireSession(deps.orm);
  const auth = authRoutes(deps);
  const routes = { open: [...auth.open, ...publicRoutes(deps)], session: [...auth.session, ...sessionRoutes(deps)] };
  const document = dashboardOpenApi(deps.appUrl, routes);

  router.get('/openapi.json', (ctx) => {
    ctx.state.routePattern = `${DASHBOARD_PREFIX}/openapi.json`;
    ctx.body = document;
  });
  const shared = { prefix: DASHBOARD_PREFIX, body: envelopeSuccess, emptyBodyIsObject: true };
  mountRoutes(router, routes.open, { ...shared, before: [origin] });
  mountRoutes(router, routes.session, { ...shared, before: [origin, session] });
  return router;
}
