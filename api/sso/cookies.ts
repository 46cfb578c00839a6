import type { Context } from 'koa';
import { SSO_ATTEMPT_TTL_MS } from '../../src/services/sso/attempts';

/**
 * Binds a sign-in at the IdP to the browser that started it (docs/sso.md): the callback is taken
 * only with this cookie, so nobody can make a victim's browser finish a sign-in the attacker
 * started (login CSRF). `__Host-`, HttpOnly, SameSite=None: sent on the IdP's way back, a top-level
 * redirect (OIDC) or a cross-site form POST (SAML), which SameSite=Lax would drop. It authenticates
 * nothing by itself: it only has to match the attempt its browser started.
 */
export const SSO_BROWSER_COOKIE = '__Host-klaxon_sso';

const ATTRIBUTES = 'Path=/; Secure; HttpOnly; SameSite=None';

export function setSsoBrowserCookie(ctx: Context, value: string): void {
  ctx.append('Set-Cookie', `${SSO_BROWSER_COOKIE}=${value}; ${ATTRIBUTES}; Max-Age=${SSO_ATTEMPT_TTL_MS / 1000}`);
}

export function clearSsoBrowserCookie(ctx: Context): void {
  ctx.append('Set-Cookie', `${SSO_BROWSER_COOKIE}=; ${ATTRIBUTES}; Max-Age=0`);
}

/** The cookie's value from the `Cookie` header, if sent. */
export const ssoBrowserCookieOf = (ctx: Context): string | undefined => cookieOf(ctx, SSO_BROWSER_COOKIE);

/**
 * The start page's nonce (docs/sso.md): set by `GET /auth/sso/start`, echoed by its form, compared
 * on the POST (double submit). SameSite=Strict and `__Host-`: another site can neither send nor set it.
 */
export const SSO_START_COOKIE = '__Host-klaxon_sso_start';

const START_ATTRIBUTES = 'Path=/; Secure; HttpOnly; SameSite=Strict';

export function setSsoStartCookie(ctx: Context, nonce: string): void {
  ctx.append('Set-Cookie', `${SSO_START_COOKIE}=${nonce}; ${START_ATTRIBUTES}; Max-Age=${SSO_ATTEMPT_TTL_MS / 1000}`);
}

export function clearSsoStartCookie(ctx: Context): void {
  ctx.append('Set-Cookie', `${SSO_START_COOKIE}=; ${START_ATTRIBUTES}; Max-Age=0`);
}

/** A cookie's value from the `Cookie` header, if sent. */
export function cookieOf(ctx: Context, name: string): string | undefined {
  for (const part of (ctx.get('Cookie') || '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}
