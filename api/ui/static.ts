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
 * Serves the built dashboard (ui/dist) at `/` on the app listener: hashed assets cached for a
 * year, every other page path answered with index.html (the router draws it), never cached so a
 * new build is seen at once. Runs last: anything a router answered is left alone.
 */
export function serveDashboard(distDir: string): Middleware {
  const index = path.join(distDir, 'index.html');
  return async (ctx, next) => {
    await next();
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.body !== undefined || ctx.status !== 404 || isServerPath(ctx.path)) return;
    ctx.state.routePattern = ctx.path.startsWith('/assets/') ? '/assets/*' : '/*';
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
    await send(ctx, 'index.html', { root: distDir, setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache') });
  };
}
