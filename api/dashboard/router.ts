import Router from '@koa/router';
import { mountRoutes } from '../http/route-spec';
import { refuseStakeholderWrites } from '../http/read-only-roles';
import { envelopeSuccess } from '../api-key/envelope';
import { requireSession, sameOrigin, sessionOf } from './guards';
import { dashboardOpenApi } from './openapi';
import { DASHBOARD_PREFIX } from './prefix';
import { authRoutes, type AuthDeps } from './routes/auth';
import { publicRoutes, sessionRoutes } from './routes';

export { DASHBOARD_PREFIX } from './prefix';

export type DashboardDeps = AuthDeps;

/** What a Stakeholder may still change: their own account (sign-out, password, two-factor, step-up, workspace), their profile (time zone), their unread list. */
const OWN_ACCOUNT = [
  `${DASHBOARD_PREFIX}/auth/`,
  `${DASHBOARD_PREFIX}/profile`,
  `${DASHBOARD_PREFIX}/notifications/mark-all-read`,
  `${DASHBOARD_PREFIX}/invitations/accept`,
];
const stakeholderReadsOnly = refuseStakeholderWrites(
  (ctx) => sessionOf(ctx).role,
  (pattern) => OWN_ACCOUNT.some((p) => pattern.startsWith(p)),
);

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
  mountRoutes(router, routes.session, { ...shared, before: [origin, session], authorize: stakeholderReadsOnly });
  return router;
}
