import type { MikroORM } from '@mikro-orm/postgresql';
import type { Context, Middleware } from 'koa';
import { HttpError } from '../http/customer-errors';
import { constantTimeEqual, sessionFromCookie, type ActiveSession } from '../../src/services/accounts';
import { sessionCookieOf } from './cookies';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** True for the dashboard's paths: `/api` and below, except the customer API's `/api/v1`. */
export const isDashboardPath = (path: string): boolean => (path === '/api' || path.startsWith('/api/')) && path !== '/api/v1' && !path.startsWith('/api/v1/');

const csrfFailed = (why: string) => new HttpError(403, `CSRF check failed: ${why}`, 'csrf_failed');

/**
 * A state-changing request whose `Origin` is present and not the app's own: 403 `csrf_failed`.
 * The commonest cause is no attack but a person who opened the dashboard under another name
 * (127.0.0.1 for localhost, a LAN address): the message says which address to open instead.
 */
export function sameOrigin(appUrl: string): Middleware {
  const origin = new URL(appUrl).origin;
  return async (ctx, next) => {
    const sent = ctx.get('Origin');
    if (STATE_CHANGING.has(ctx.method) && sent && sent !== origin) {
      throw csrfFailed(`this page comes from another address than Klaxon's (APP_URL): open ${origin}/ and try again there`);
    }
    await next();
  };
}

export const sessionOf = (ctx: Context): ActiveSession => ctx.state.session as ActiveSession;

/**
 * The signed-in session, from the `__Host-klaxon_session` cookie only: bearer tokens and API keys
 * are never accepted here (401). State-changing requests must echo the session's CSRF value in
 * `X-CSRF-Token` (403 `csrf_failed`).
 */
export function requireSession(orm: MikroORM): Middleware {
  return async (ctx, next) => {
    const cookie = sessionCookieOf(ctx);
    if (!cookie && /^bearer\s/i.test(ctx.get('Authorization'))) {
      throw new HttpError(401, 'bearer tokens are not accepted on /api: log in for a session (the customer API is /api/v1)', 'unauthorized');
    }
    const session = await sessionFromCookie(orm, cookie);
    if (STATE_CHANGING.has(ctx.method)) {
      const sent = ctx.get('X-CSRF-Token');
      if (!sent) throw csrfFailed('X-CSRF-Token header missing');
      if (!constantTimeEqual(sent, session.csrf_token)) throw csrfFailed('X-CSRF-Token does not match the session');
    }
    ctx.state.session = session;
    await next();
  };
}
