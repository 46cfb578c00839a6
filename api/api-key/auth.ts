import type { MikroORM } from '@mikro-orm/postgresql';
import type { Middleware, ParameterizedContext } from 'koa';
import { authenticateApiKey, type ApiKeyPrincipal } from '../../src/services/workspace';
import { HttpError } from '../http/customer-errors';

const INVALID_KEY = 'missing, invalid or revoked API key';

/**
 * `Authorization: Bearer <API_KEY>` on every /v1 route (docs/architecture.md, "Workspaces, roles and credentials"), rechecked on each request:
 * a missing, unknown or revoked key (a customer API token included) is 401. Then the key's own
 * rate limit.
 */
export function apiKeyAuth(deps: { orm: MikroORM; rateLimit: (ctx: ParameterizedContext, key: string) => Promise<void> }): Middleware {
  return async (ctx, next) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('Authorization'));
    const principal = match ? await authenticateApiKey(deps.orm, match[1]) : undefined;
    if (!principal) throw new HttpError(401, INVALID_KEY, 'unauthorized', { 'WWW-Authenticate': 'Bearer' });
    await deps.rateLimit(ctx, principal.keyId);
    ctx.state.apiKey = principal;
    await next();
  };
}

export const keyPrincipalOf = (ctx: ParameterizedContext): ApiKeyPrincipal => ctx.state.apiKey as ApiKeyPrincipal;
