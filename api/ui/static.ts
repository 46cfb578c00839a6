import { existsSync } from 'node:fs';
import path from 'node:path';
import { send } from '@koa/send';
import type { Middleware } from 'koa';

/** Paths the app listener answers itself: never the dashboard's pages. */
const SERVER_PREFIXES = ['/api', '/hooks', '/healthz', '/readyz', '/metrics'];
const isServerPath = (p: string) => SERVER_PREFIXES.some((prefix) => p === prefix || p.startsWith(`${prefix}/`));

/** Vite's hashed assets: a changed file gets a new name, so a year of caching is safe. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The installable app's files at the root (docs/pwa.md), each with its type and caching: the
 * service worker and the manifest are asked again each time (a new build must be seen; browsers
 * check the worker at least daily anyway), the icons keep their names across builds so a day.
 * They are files or 404s, never the page: a browser must not install HTML as its worker.
 */
const APP_FILES: Record<string, { type: string; cache: string }> = {
  '/sw.js': { type: 'application/javascript; charset=utf-8', cache: 'no-cache' },
  '/manifest.webmanifest': { type: 'application/manifest+json; charset=utf-8', cache: 'no-cache' },
};
const ICONS = /^\/icons\/[\w.-]+\.png$/;

/**
 * Serves the built dashboard (ui/dist) at `/` on the app listener: hashed assets cached for a
 * year, the service worker, manifest and icons as themselves (APP_FILES), every other page path
 * answered with index.html (the router draws it), never cached so a new build is seen at once.
 * Runs last: anything a router answered is left alone.
 */
export function serveDashboard(distDir: string): Middleware {
  const index = path.join(distDir, 'index.html');
  return async (ctx, next) => {
    await next();
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.body !== undefined || ctx.status !== 404 || isServerPath(ctx.path)) return;
    const appFile = Object.hasOwn(APP_FILES, ctx.path) ? APP_FILES[ctx.path] : undefined;
    const icon = ctx.path.startsWith('/icons/');
    ctx.state.routePattern = ctx.path.startsWith('/assets/') ? '/assets/*' : appFile ? ctx.path : icon ? '/icons/*' : '/*';
    if (!existsSync(index)) {
      ctx.status = 503;
      ctx.type = 'text/plain';
      ctx.body = 'The dashboard has not been built: run `npm run build:ui` (npm install and npm start build it).\n';
      return;
    }
    if (ctx.path.startsWith('/assets/')) {
      // A missing asset is a 404, not the page: a stale tab must not parse HTML as JavaScript.
      try {
        await send(ctx, ctx.path, { root: distDir, setHeaders: (res) => res.setHeader('Cache-Control', IMMUTABLE) });
      } catch {
        ctx.status = 404;
        ctx.type = 'text/plain';
        ctx.body = 'not found\n';
      }
      return;
    }
    if (appFile || icon) {
      try {
        if (icon && !ICONS.test(ctx.path)) throw new Error('not an icon');
        await send(ctx, ctx.path, { root: distDir, setHeaders: (res) => res.setHeader('Cache-Control', appFile ? appFile.cache : 'public, max-age=86400') });
        if (appFile) ctx.type = appFile.type;
      } catch {
        ctx.status = 404;
        ctx.type = 'text/plain';
        ctx.body = 'not found\n';
      }
      return;
    }
    await send(ctx, 'index.html', { root: distDir, setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache') });
  };
}
