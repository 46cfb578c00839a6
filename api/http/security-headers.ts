import helmet from 'koa-helmet';
import type { Middleware } from 'koa';

/**
 * Security headers on every answer of the app listener (docs/security.md, "Headers"), from
 * helmet: the dashboard loads only its own scripts (Vite emits no inline script), may not be
 * framed, and sends no referrer (links carry page tokens). Styles allow inline: Mantine sets
 * its CSS variables in a style element and style attributes. HSTS and upgrading requests only
 * when APP_URL is https: on a developer's http://localhost they would break the page.
 */
export function securityHeaders(appUrl: string): Middleware {
  const https = new URL(appUrl).protocol === 'https:';
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: https ? { maxAge: 31_536_000 } : false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  }) as Middleware;
}
