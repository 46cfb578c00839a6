/** The workspace's single sign-on policy for other ways in (docs/sso.md): `require_sso`, Billing Owners as break-glass. */
import type { Knex } from '@mikro-orm/postgresql';
import { PLAN_LIMITS, type Plan } from '../../domain/plans';
import type { Role } from '../../domain/roles';
import { mayLogInWithPassword } from '../../domain/sso';
import { forbidden } from '../errors';

/**
 * Refuses (403 `sso_required`) a password session in a workspace that requires SSO, unless the
 * member is a Billing Owner (the way back in when the IdP is down or misconfigured). A workspace
 * no longer on a plan with SSO cannot sign anyone in with it, so its `require_sso` is not applied.
 */
export async function assertPasswordSessionAllowed(db: Knex, userId: string, organizationId: string): Promise<void> {
  const row = (await db('sso_connections as c')
    .join('organizations as o', 'o.id', 'c.organization_id')
    .join('memberships as m', function () {
      this.on('m.organization_id', '=', 'c.organization_id');
    })
    .select('c.require_sso', 'o.plan', 'm.role')
    .where({ 'c.organization_id': organizationId, 'm.user_id': userId })
    .first()) as { require_sso: boolean; plan: Plan; role: Role } | undefined;
  if (!row || !PLAN_LIMITS[row.plan].singleSignOn || mayLogInWithPassword(row.require_sso, row.role)) return;
  throw forbidden('this workspace requires single sign-on: use "Log in with SSO" (GET /auth/sso/start?email=…)', 'sso_required');
}
