import { z } from 'zod';
import { requireStepUp } from '../../../src/services/accounts';
import { forbidden } from '../../../src/services/errors';
import { issueScimToken, revokeScimToken, scimTokenStatus } from '../../../src/services/scim/token';
import { planHasScim, scimPlanMessage } from '../../../src/services/scim/plan';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, auditActorOf, authorizedActor, requireVerified, type AdminDeps } from '../admin-kit';
import { sessionOf } from '../guards';
import { FactorFields, STEP_UP_ERRORS, stepUpDepsOf } from './security';

const IssueBody = z.object(FactorFields).strict();
const IssuedSchema = z.object({ token: z.string(), created_at: z.iso.datetime() });
const StatusSchema = z.object({ configured: z.boolean(), prefix: z.string().nullable(), created_at: z.iso.datetime().nullable() });

/**
 * The workspace's SCIM bearer token (docs/scim.md). Whoever may manage members may let the
 * identity provider manage them: Billing Owners and Account Admins.
 */
export function scimTokenRoutes(deps: AdminDeps): RouteSpec[] {
  const stepUpDeps = stepUpDepsOf(deps);
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/sso/scim-token',
      summary: 'Whether the workspace has a SCIM token, and its first characters (Billing Owner, Account Admin)',
      operationId: 'getScimTokenStatus',
      success: { status: 200, description: 'never the token itself', schema: StatusSchema },
      errors: ADMIN_ERRORS,
      handler: async (ctx) => {
        const actor = await authorizedActor(deps.orm, ctx, 'members.manage');
        return { data: await scimTokenStatus(deps.orm, actor.organizationId) };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/sso/scim-token',
      summary: "Issue the workspace's SCIM token, replacing the previous one (Billing Owner, Account Admin; verified; BUSINESS; needs a step-up)",
      operationId: 'issueScimToken',
      body: IssueBody,
      success: { status: 201, description: 'the token, shown this once; the previous token stops at once', schema: IssuedSchema },
      errors: { ...STEP_UP_ERRORS, 403: `${STEP_UP_ERRORS[403]}; email_unverified; plan_limit_reached (only BUSINESS has SCIM)` },
      handler: async (ctx, { body }) => {
        const actor = await authorizedActor(deps.orm, ctx, 'members.manage');
        requireVerified(actor, 'issue a SCIM token');
        const { plan } = sessionOf(ctx as never).organization;
        if (!planHasScim(plan)) throw forbidden(scimPlanMessage(plan), 'plan_limit_reached');
        await requireStepUp(stepUpDeps, sessionOf(ctx as never), body, actor.ip);
        const data = await issueScimToken(deps.orm, { organizationId: actor.organizationId, actor: auditActorOf(actor), createdBy: actor.userId });
        return { data, message: 'copy the token into your identity provider now: it is not shown again' };
      },
    }),
    defineRoute({
      method: 'delete',
      access: 'write',
      path: '/sso/scim-token',
      summary: "Revoke the workspace's SCIM token at once (Billing Owner, Account Admin; on any plan)",
      operationId: 'revokeScimToken',
      success: { status: 200, description: 'revoked: SCIM requests with it are 401 from now on', schema: z.object({ revoked: z.literal(true) }) },
      errors: { ...ADMIN_ERRORS, 404: 'the workspace has no SCIM token' },
      handler: async (ctx) => {
        const actor = await authorizedActor(deps.orm, ctx, 'members.manage');
        return { data: await revokeScimToken(deps.orm, { organizationId: actor.organizationId, actor: auditActorOf(actor) }), message: 'SCIM token revoked' };
      },
    }),
  ];
}
