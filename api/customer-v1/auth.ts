import type { MikroORM } from '@mikro-orm/postgresql';
import type { Middleware, ParameterizedContext } from 'koa';
import { authenticateApiToken, type ApiPrincipal } from '../../src/services/workspace';
import { HttpError } from '../http/customer-errors';
import type { RouteSpec } from '../http/route-spec';

const INVALID_TOKEN = 'missing, invalid, expired or revoked API token';

/**
 * Bearer-token authentication for /api/v1, rechecked on every request (docs/architecture.md, "Workspaces, roles and credentials"):
 * 401 for a bad, expired or revoked token (one message for all), 403 when the token's owner
 * or workspace no longer qualifies, or when the path names another workspace.
 */
export function customerAuth({ orm }: { orm: MikroORM }): Middleware {
  return async (ctx, next) => {
    const header = ctx.get('Authorization');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw new HttpError(401, INVALID_TOKEN, undefined, { 'WWW-Authenticate': 'Bearer' });
    const outcome = await authenticateApiToken(orm, match[1]);
    if (!outcome.ok) {
      if (outcome.reason === 'invalid_token') throw new HttpError(401, INVALID_TOKEN, undefined, { 'WWW-Authenticate': 'Bearer' });
      throw new HttpError(403, outcome.message);
    }
    const pathOrg = /^\/api\/v1\/organizations\/([^/]+)/.exec(ctx.path)?.[1];
    if (pathOrg !== undefined && pathOrg.toLowerCase() !== outcome.principal.organizationId) {
      throw new HttpError(403, 'this API token does not belong to the workspace in the path');
    }
    ctx.state.principal = outcome.principal;
    await next();
  };
}

export const principalOf = (ctx: ParameterizedContext): ApiPrincipal => ctx.state.principal as ApiPrincipal;

/** READ_ONLY tokens may only read. */
export function authorizeAccess(ctx: ParameterizedContext, access: RouteSpec['access']): void {
  if (access === 'write' && principalOf(ctx).access !== 'READ_WRITE') {
    throw new HttpError(403, 'this API token is READ_ONLY; the route needs a READ_WRITE token');
  }
}
