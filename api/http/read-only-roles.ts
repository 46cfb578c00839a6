import type { ParameterizedContext } from 'koa';
import type { Role } from '../../src/domain/roles';
import type { RouteSpec } from './route-spec';
import { HttpError } from './customer-errors';

/**
 * A Stakeholder reads incidents, reports and on-call but changes nothing (docs/importers.md,
 * "Roles"): every `write` route of a surface refuses them with 403 `forbidden`, except the ones
 * about their own account that `ownAccount` lets through (signing out, their password, two-factor).
 * Checked once here, by the route's declared access, so a new write route is covered without a
 * line of its own.
 */
export function refuseStakeholderWrites(
  roleOf: (ctx: ParameterizedContext) => Role | undefined,
  ownAccount: (routePattern: string) => boolean,
): (ctx: ParameterizedContext, access: RouteSpec['access']) => void {
  return (ctx, access) => {
    if (access !== 'write') return;
    const role = roleOf(ctx);
    if (role !== 'STAKEHOLDER') return;
    if (ownAccount(String(ctx.state.routePattern ?? ''))) return;
    throw new HttpError(403, 'a Stakeholder reads incidents, reports and on-call but may not change anything here', 'forbidden');
  };
}
