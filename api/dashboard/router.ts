import Router from '@koa/router';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Context } from 'koa';
import type { z } from 'zod';
import { HttpError } from '../http/customer-errors';
import {
  changePassword,
  login,
  LoginThrottle,
  LoginThrottled,
  logout,
  logoutEverywhere,
  requestPasswordReset,
  resetPassword,
  ResetThrottle,
  ResetThrottled,
  signup,
  verifyEmail,
  type AccountMailer,
  type LoginThrottleOptions,
  type ResetThrottleOptions,
} from '../../src/services/accounts';
import { legacySuccess } from '../legacy/envelope';
import { mountRoutes } from '../http/route-spec';
import type { AdminDeps } from './admin-kit';
import { clearSessionCookie, setSessionCookie } from './cookies';
import { dashboardOpenApi } from './openapi';
import { publicRoutes, sessionRoutes } from './routes';
import { requireSession, sameOrigin, sessionOf } from './guards';
import { ChangePasswordBody, EmptyBody, LoginBody, PasswordResetBody, PasswordResetRequestBody, SignupBody, VerifyBody } from './schemas';

export interface DashboardDeps extends AdminDeps {
  orm: MikroORM;
  appUrl: string;
  /** Sends account emails through the email channel (the dev inbox when no provider is configured). */
  mailer: AccountMailer;
  loginThrottle?: LoginThrottleOptions;
  resetThrottle?: ResetThrottleOptions;
}

export { DASHBOARD_PREFIX } from './prefix';
import { DASHBOARD_PREFIX } from './prefix';

const bodyOf = <S extends z.ZodType>(ctx: Context, schema: S): z.infer<S> => schema.parse((ctx.request as { body?: unknown }).body ?? {});

const ok = (ctx: Context, data: unknown, message: string, status = 200) => {
  ctx.status = status;
  ctx.body = { success: true, data, message };
};

const named = (pattern: string) => async (ctx: Context, next: () => Promise<unknown>) => {
  ctx.state.routePattern = DASHBOARD_PREFIX + pattern;
  await next();
};

/**
 * The dashboard's JSON routes under /api (design.md §7): accounts and sessions. Errors are
 * answered in the legacy envelope by the listener (api/app.ts).
 */
export function createDashboardRouter(deps: DashboardDeps): Router {
  const router = new Router({ prefix: DASHBOARD_PREFIX });
  const throttle = new LoginThrottle(deps.loginThrottle);
  const resetThrottle = new ResetThrottle(deps.resetThrottle);
  const origin = sameOrigin(deps.appUrl);
  const session = requireSession(deps.orm);
  const adminRoutes = sessionRoutes(deps);
  const openRoutes = publicRoutes(deps);
  const document = dashboardOpenApi(deps.appUrl, { session: adminRoutes, open: openRoutes });

  router.get('/openapi.json', named('/openapi.json'), (ctx) => {
    ctx.body = document;
  });

  router.post('/auth/signup', named('/auth/signup'), origin, async (ctx) => {
    const body = bodyOf(ctx, SignupBody);
    const account = await signup(deps.orm, deps.mailer, deps.appUrl, body);
    ok(ctx, account, 'account created; open the link we emailed to verify the address', 201);
  });

  router.post('/auth/verify', named('/auth/verify'), origin, async (ctx) => {
    const { token } = bodyOf(ctx, VerifyBody);
    ok(ctx, await verifyEmail(deps.orm, token), 'email address verified');
  });

  router.post('/auth/login', named('/auth/login'), origin, async (ctx) => {
    const body = bodyOf(ctx, LoginBody);
    const { cookieValue, ...view } = await throttled(login(deps.orm, throttle, body, { ip: ctx.ip, userAgent: ctx.get('User-Agent') }, deps.webhooks.sealer));
    setSessionCookie(ctx, cookieValue);
    ok(ctx, view, 'logged in');
  });

  router.get('/auth/session', named('/auth/session'), session, (ctx) => {
    const { sessionId: _id, ...view } = sessionOf(ctx);
    ok(ctx, view, 'signed in');
  });

  router.post('/auth/logout', named('/auth/logout'), origin, session, async (ctx) => {
    bodyOf(ctx, EmptyBody);
    await logout(deps.orm, sessionOf(ctx).sessionId);
    clearSessionCookie(ctx);
    ok(ctx, null, 'logged out');
  });

  router.post('/auth/logout-everywhere', named('/auth/logout-everywhere'), origin, session, async (ctx) => {
    bodyOf(ctx, EmptyBody);
    const ended = await logoutEverywhere(deps.orm, sessionOf(ctx).user.id);
    clearSessionCookie(ctx);
    ok(ctx, { sessions_ended: ended }, `logged out of ${ended} session(s)`);
  });

  router.post('/auth/password', named('/auth/password'), origin, session, async (ctx) => {
    const body = bodyOf(ctx, ChangePasswordBody);
    const { cookieValue, ...view } = await throttled(changePassword(deps.orm, throttle, sessionOf(ctx), body, { ip: ctx.ip, userAgent: ctx.get('User-Agent') }));
    setSessionCookie(ctx, cookieValue);
    ok(ctx, view, 'password changed; every other session has been logged out');
  });

  router.post('/auth/password-reset', named('/auth/password-reset'), origin, async (ctx) => {
    const body = bodyOf(ctx, PasswordResetRequestBody);
    let send: boolean;
    try {
      send = await resetThrottle.take(body.email, ctx.ip);
    } catch (err) {
      if (err instanceof ResetThrottled) throw new HttpError(429, err.message, 'rate_limited', { 'Retry-After': String(err.retryAfterSeconds) });
      throw err;
    }
    if (send) await requestPasswordReset(deps.orm, deps.mailer, deps.appUrl, body);
    ok(ctx, null, 'if an account has this address, a reset link is on its way', 202);
  });

  router.post('/auth/password-reset/confirm', named('/auth/password-reset/confirm'), origin, async (ctx) => {
    await resetPassword(deps.orm, bodyOf(ctx, PasswordResetBody));
    ok(ctx, null, 'password changed; log in with the new one');
  });

  mountRoutes(router, openRoutes, { prefix: DASHBOARD_PREFIX, before: [origin], body: legacySuccess });
  mountRoutes(router, adminRoutes, { prefix: DASHBOARD_PREFIX, before: [origin, session], body: legacySuccess });
  return router;
}

/** A throttled login (or password check) answers 429 with Retry-After. */
async function throttled<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof LoginThrottled) throw new HttpError(429, err.message, 'rate_limited', { 'Retry-After': String(err.retryAfterSeconds) });
    throw err;
  }
}
