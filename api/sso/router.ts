import Router from '@koa/router';
import { z } from 'zod';
import { finishSsoSignIn, type SsoDeps } from '../../src/services/sso';
import { MAX_STATE_LENGTH } from '../../src/services/sso/attempts';
import { envelopeSuccess } from '../api-key/envelope';
import { setSessionCookie } from '../dashboard/cookies';
import { sameOrigin } from '../dashboard/guards';
import { HttpError } from '../http/customer-errors';
import { defineRoute, mountRoutes } from '../http/route-spec';
import { clearSsoBrowserCookie, ssoBrowserCookieOf } from './cookies';

/** Where the browser goes: the sign-in pages and the IdP's return, outside /api (docs/sso.md). */
export const SSO_PREFIX = '/auth/sso';

/** True for the paths this router answers (the dashboard's error envelope covers them too). */
export const isSsoPath = (path: string): boolean => path.startsWith(`${SSO_PREFIX}/`);

/** Longest query an IdP's return may carry (a code, a state, an issuer, an error description). */
const MAX_CALLBACK_QUERY = 8 * 1024;

// Loose: IdPs add parameters of their own (`session_state`, …); these are the ones read, capped.
const CallbackQuery = z.object({
  state: z.string().min(1, 'is missing').max(MAX_STATE_LENGTH),
  code: z.string().max(2048).optional(),
  iss: z.string().max(2048).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(1024).optional(),
});

const FLOW_ERRORS = {
  400: 'invalid field (named); sso_state_invalid: unknown, used, expired or another browser’s sign-in',
  401: 'sso_failed: the identity provider’s answer did not check out (state, nonce, PKCE, issuer, audience, signature)',
  403: 'plan_limit_reached; sso_email_unverified; sso_domain_not_allowed; sso_account_exists; step_up_failed; sso_unavailable (a protocol this process cannot sign in with)',
  404: 'single sign-on is not set up for this workspace',
  503: 'service_unavailable',
} as const;

/**
 * `GET /auth/sso/oidc/callback` → the session cookie, exactly as a password login sets it, and 302 to `/`
 * (or, for a step-up, the session stepped up and 302 to `/`). Failures answer in the dashboard's envelope.
 * Starting is ./start-routes.ts (Klaxon's own page and its POST).
 */
export function createSsoRouter(deps: SsoDeps): Router {
  const router = new Router({ prefix: SSO_PREFIX });
  const client = (ctx: { ip: string; get(h: string): string }) => ({ ip: ctx.ip, userAgent: ctx.get('User-Agent') });
  const routes = [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/oidc/callback',
      summary: 'Where the OpenID provider sends the browser back: signs in and goes to the dashboard',
      operationId: 'ssoOidcCallback',
      query: CallbackQuery,
      success: { status: 302, description: 'signed in (Set-Cookie: __Host-klaxon_session=…), to /', schema: z.null() },
      errors: FLOW_ERRORS,
      handler: async (ctx, { query }) => {
        if (ctx.querystring.length > MAX_CALLBACK_QUERY) throw new HttpError(400, `the query is longer than ${MAX_CALLBACK_QUERY} characters`);
        const browserValue = ssoBrowserCookieOf(ctx as never);
        clearSsoBrowserCookie(ctx as never);
        const finished = await finishSsoSignIn(deps, {
          state: query.state,
          response: { url: new URL(`${deps.appUrl}${ctx.path}?${ctx.querystring}`) },
          browserValue,
          client: client(ctx),
        });
        if (finished.kind === 'login') setSessionCookie(ctx as never, finished.session.cookieValue);
        return { data: null, redirect: '/' };
      },
    }),
  ];
  mountRoutes(router, routes, { prefix: SSO_PREFIX, body: envelopeSuccess, before: [sameOrigin(deps.appUrl)] });
  return router;
}
