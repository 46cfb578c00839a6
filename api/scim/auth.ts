import type { MikroORM } from '@mikro-orm/postgresql';
import type { Middleware } from 'koa';
import { ScimError } from '../../src/services/scim/errors';
import { scimPlanMessage } from '../../src/services/scim/plan';
import { authenticateScimToken } from '../../src/services/scim/token';

/** The workspace a SCIM request acts on, set by `scimBearer`. */
export const scimWorkspaceOf = (state: Record<string, unknown>): string => state.scimOrganizationId as string;

const MAX_AUTHORIZATION_LENGTH = 512;

/**
 * The workspace's SCIM token as `Authorization: Bearer …`: missing, wrong or revoked is 401 (one
 * answer for all); a workspace no longer on BUSINESS is 403, checked on every request.
 */
export function scimBearer(orm: MikroORM): Middleware {
  return async (ctx, next) => {
    const header = ctx.get('Authorization');
    const [scheme, token, ...rest] = header.length <= MAX_AUTHORIZATION_LENGTH ? header.split(' ') : [];
    const auth = scheme?.toLowerCase() === 'bearer' && token && rest.length === 0 ? await authenticateScimToken(orm, token) : { ok: false as const };
    if (!auth.ok) throw new ScimError(401, 'a valid SCIM bearer token is required (Authorization: Bearer …, from POST /api/sso/scim-token)');
    if (!auth.planAllows) throw new ScimError(403, `plan_limit_reached: ${scimPlanMessage(auth.plan)}`);
    ctx.state.scimOrganizationId = auth.organizationId;
    await next();
  };
}
