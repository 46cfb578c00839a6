import Router from '@koa/router';
import { koaBody } from 'koa-body';
import type { Context } from 'koa';
import { z } from 'zod';
import { constantTimeEqual, randomSecret } from '../../src/services/accounts/secrets';
import { startSsoSignIn, type SsoDeps } from '../../src/services/sso';
import type { ClientIpThrottle } from '../../src/services/throttles/requests';
import { HttpError } from '../http/customer-errors';
import { clearSsoStartCookie, cookieOf, setSsoBrowserCookie, setSsoStartCookie, SSO_START_COOKIE } from './cookies';
import { ssoStartPage } from './start-page';

/** Where a single sign-on starts (docs/sso.md): Klaxon's own page, then its form's POST. */
export const SSO_START_PATH = '/auth/sso/start';

/** The form is three short fields. */
const FORM_LIMIT = '4kb';

const Target = {
  email: z.email('must be an email address').max(320).optional(),
  organization_id: z.uuid('must be a workspace id (UUID)').optional(),
};
const oneTarget = (v: { email?: string; organization_id?: string }) => (v.email === undefined) !== (v.organization_id === undefined);
const ONE_TARGET = { message: 'give email or organization_id (one of them)' };

const StartQuery = z.object(Target).strict().refine(oneTarget, ONE_TARGET);
const StartForm = z
  .object({ ...Target, nonce: z.string().min(1, 'is missing').max(128) })
  .strict()
  .refine(oneTarget, ONE_TARGET);

const startRefused = (why: string) => new HttpError(403, `CSRF check failed: ${why}`, 'csrf_failed');

/**
 * The start page's own headers: its form may lead to the IdP (the POST answers a redirect there,
 * which `form-action` also governs, so any https origin is allowed on this page only), and its
 * POST must carry this page's `Origin` (`Referrer-Policy: no-referrer` would make it `null`).
 */
function startPageHeaders(ctx: Context): void {
  const csp = String(ctx.response.get('Content-Security-Policy') ?? '');
  if (csp) ctx.set('Content-Security-Policy', csp.replace("form-action 'self'", "form-action 'self' https:"));
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.set('Cache-Control', 'no-store');
}

/**
 * `GET /auth/sso/start?email=` (or `?organization_id=`): a page whose "Continue with SSO" form
 * posts the same with a nonce, also set in a SameSite=Strict cookie. `POST /auth/sso/start`: only
 * with this app's `Origin` and the nonce of the page's cookie, counted per client IP, then 302 to
 * the IdP. A link or form on another site reaches the page at most, never the IdP (login CSRF).
 * Mounted before the JSON body parser: the form posts `application/x-www-form-urlencoded`.
 */
export function createSsoStartRouter(deps: SsoDeps & { startThrottle: ClientIpThrottle }): Router {
  const router = new Router();
  const appOrigin = new URL(deps.appUrl).origin;
  const form = koaBody({
    json: false,
    urlencoded: true,
    multipart: false,
    text: false,
    formLimit: FORM_LIMIT,
    onError: (err) => {
      if ((err as { status?: number }).status === 413) throw new HttpError(413, 'the form is larger than 4 KiB');
      throw new HttpError(400, 'the form could not be read');
    },
  });
  router.get(SSO_START_PATH, async (ctx) => {
    ctx.state.routePattern = SSO_START_PATH;
    const query = StartQuery.parse(ctx.query);
    const nonce = randomSecret();
    setSsoStartCookie(ctx as never, nonce);
    startPageHeaders(ctx as never);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = ssoStartPage({ ...query, nonce }, SSO_START_PATH);
  });
  router.post(SSO_START_PATH, form, async (ctx) => {
    ctx.state.routePattern = SSO_START_PATH;
    // Before anything is read or counted: only Klaxon's own page posts here.
    if (ctx.get('Origin') !== appOrigin)
      throw startRefused(`single sign-on starts only from Klaxon's own page: open ${appOrigin}/login and choose "Log in with SSO"`);
    const { nonce, ...target } = StartForm.parse(ctx.request.body ?? {});
    const cookie = cookieOf(ctx as never, SSO_START_COOKIE);
    clearSsoStartCookie(ctx as never);
    if (!cookie || !constantTimeEqual(cookie, nonce))
      throw startRefused(`this sign-in page expired or was opened in another browser: open ${appOrigin}/login and choose "Log in with SSO" again`);
    // Counted before anything is looked up: each start stores an attempt.
    await deps.startThrottle.take(ctx.ip);
    const started = await startSsoSignIn(deps, target);
    setSsoBrowserCookie(ctx as never, started.browserValue);
    ctx.redirect(started.redirectUrl);
  });
  return router;
}
