import type { Context } from 'koa';

/** The dashboard's session cookie: `__Host-` so it is Secure, host-only (no Domain) and Path=/. */
export const SESSION_COOKIE = '__Host-klaxon_session';

const ATTRIBUTES = 'Path=/; Secure; HttpOnly; SameSite=Lax';

/**
 * Written by hand: Koa's cookie helper refuses `secure` on plain HTTP, and browsers accept
 * `__Host-` cookies from http://localhost. No Max-Age: the browser keeps it for its session, the
 * server decides expiry (idle and absolute).
 */
export function setSessionCookie(ctx: Context, value: string): void {
  ctx.append('Set-Cookie', `${SESSION_COOKIE}=${value}; ${ATTRIBUTES}`);
}

export function clearSessionCookie(ctx: Context): void {
  ctx.append('Set-Cookie', `${SESSION_COOKIE}=; ${ATTRIBUTES}; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT`);
}

/** The session cookie's value from the `Cookie` header, if sent. */
export function sessionCookieOf(ctx: Context): string | undefined {
  for (const part of (ctx.get('Cookie') || '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}
