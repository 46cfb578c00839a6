import { z } from 'zod';
import { API_KEY_NAME_MAX } from '../../../src/domain/api-key';
import { ACCESS_LEVELS, API_TOKEN_MAX_DAYS } from '../../../src/domain/api-token';
import { can } from '../../../src/domain/permissions';
import { planHasApiAccess } from '../../../src/domain/plans';
import { requireStepUp } from '../../../src/services/accounts';
import { forbidden } from '../../../src/services/errors';
import { API_TOKEN_NAME_MAX, createApiKey, createApiToken, listApiKeys, listApiTokens, revokeInWorkspace } from '../../../src/services/workspace';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, adminActorOf, auditActorOf, IdParams, requireVerified, type AdminDeps, authorizedActor } from '../admin-kit';
import { sessionOf } from '../guards';
import { FactorFields, STEP_UP_ERRORS, stepUpDepsOf } from './security';

const TokenBody = z
  .object({
    access: z.enum(ACCESS_LEVELS),
    days: z.number().int().min(1).max(API_TOKEN_MAX_DAYS),
    name: z.string().trim().min(1).max(API_TOKEN_NAME_MAX).optional(),
    ...FactorFields,
  })
  .strict();
const KeyBody = z.object({ name: z.string().trim().min(1).max(API_KEY_NAME_MAX).optional(), ...FactorFields }).strict();

const Holder = z.object({ id: z.uuid(), email: z.string() });
const TokenSchema = z.object({
  id: z.uuid(),
  name: z.string().nullable(),
  prefix: z.string(),
  access: z.enum(ACCESS_LEVELS),
  user: Holder,
  status: z.enum(['active', 'expired', 'revoked']),
  created_at: z.iso.datetime(),
  expires_at: z.iso.datetime(),
  revoked_at: z.iso.datetime().nullable(),
});
const NewTokenSchema = z.object({ id: z.uuid(), token: z.string(), name: z.string().nullable(), access: z.enum(ACCESS_LEVELS), expires_at: z.iso.datetime() });
const KeySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  prefix: z.string(),
  user: Holder,
  status: z.enum(['active', 'revoked']),
  created_at: z.iso.datetime(),
  last_used_at: z.iso.datetime().nullable(),
  revoked_at: z.iso.datetime().nullable(),
});
const NewKeySchema = z.object({ id: z.uuid(), key: z.string(), name: z.string() });
const Revoked = z.object({ id: z.uuid(), revoked: z.literal(true) });

/** Customer API tokens and API keys under /api. */
export function credentialsRoutes(deps: AdminDeps): RouteSpec[] {
  const stepUpDeps = stepUpDepsOf(deps);
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/tokens',
      summary: "List the workspace's customer API tokens, metadata only (Billing Owner, Account Admin)",
      operationId: 'listApiTokens',
      success: { status: 200, description: 'every token of the workspace, newest first; never the secret', schema: z.array(TokenSchema) },
      errors: ADMIN_ERRORS,
      handler: async (ctx) => {
        const actor = await authorizedActor(deps.orm, ctx, 'api_tokens.manage');
        return { data: await listApiTokens(deps.orm, actor.organizationId) };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/tokens',
      summary: 'Create a customer API token (Billing Owner, Account Admin; verified; PRO or BUSINESS; needs a step-up)',
      operationId: 'createApiToken',
      body: TokenBody,
      success: { status: 201, description: 'the token: `token` is the plaintext, shown this once', schema: NewTokenSchema },
      errors: { ...STEP_UP_ERRORS, 403: `${STEP_UP_ERRORS[403]}; email_unverified; plan_limit_reached (FREE and STARTER have no API access)` },
      handler: async (ctx, { body }) => {
        const actor = await authorizedActor(deps.orm, ctx, 'api_tokens.manage');
        requireVerified(actor, 'create API tokens');
        const { plan } = sessionOf(ctx as never).organization;
        if (!planHasApiAccess(plan)) throw forbidden(`the ${plan} plan does not include API access (PRO and BUSINESS do)`, 'plan_limit_reached');
        const { access, days, name, ...factor } = body;
        await requireStepUp(stepUpDeps, sessionOf(ctx as never), factor, actor.ip);
        const token = await createApiToken(
          deps.orm,
          { organizationId: actor.organizationId, email: actor.email, access, days, name },
          { actor: auditActorOf(actor) },
        );
        return { data: { ...token, name: name ?? null }, message: 'copy the token now: it is not shown again' };
      },
    }),
    defineRoute({
      method: 'delete',
      access: 'write',
      path: '/tokens/{id}',
      summary: 'Revoke a customer API token at once (Billing Owner, Account Admin; on any plan)',
      operationId: 'revokeApiToken',
      params: IdParams,
      success: { status: 200, description: 'revoked (revoking twice answers the same)', schema: Revoked },
      errors: { ...ADMIN_ERRORS, 404: 'no such token in this workspace' },
      handler: async (ctx, { params }) => {
        const actor = await authorizedActor(deps.orm, ctx, 'api_tokens.manage');
        return {
          data: await revokeInWorkspace(deps.orm, 'api_tokens', { organizationId: actor.organizationId, id: params.id, actor: auditActorOf(actor) }),
          message: 'token revoked',
        };
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/api-keys',
      summary: "List API keys: Billing Owners and Account Admins see the workspace's, others their own",
      operationId: 'listApiKeys',
      success: { status: 200, description: 'keys, newest first; never the secret', schema: z.array(KeySchema) },
      errors: ADMIN_ERRORS,
      handler: async (ctx) => {
        const actor = adminActorOf(ctx);
        const userId = can(actor.role, 'api_keys.manage_any') ? undefined : actor.userId;
        return { data: await listApiKeys(deps.orm, actor.organizationId, { userId }) };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/api-keys',
      summary: 'Create an API key for yourself (any verified member; needs a step-up)',
      operationId: 'createApiKey',
      body: KeyBody,
      success: { status: 201, description: 'the key: `key` is the plaintext, shown this once', schema: NewKeySchema },
      errors: { ...STEP_UP_ERRORS, 403: `${STEP_UP_ERRORS[403]}; email_unverified` },
      handler: async (ctx, { body }) => {
        const actor = adminActorOf(ctx);
        requireVerified(actor, 'create API keys');
        const { name, ...factor } = body;
        await requireStepUp(stepUpDeps, sessionOf(ctx as never), factor, actor.ip);
        const key = await createApiKey(deps.orm, { organizationId: actor.organizationId, email: actor.email, name }, { actor: auditActorOf(actor) });
        return { data: key, message: 'copy the key now: it is not shown again' };
      },
    }),
    defineRoute({
      method: 'delete',
      access: 'write',
      path: '/api-keys/{id}',
      summary: "Revoke an API key: your own, or anyone's in the workspace as Billing Owner or Account Admin",
      operationId: 'revokeApiKey',
      params: IdParams,
      success: { status: 200, description: 'revoked (revoking twice answers the same)', schema: Revoked },
      errors: { ...ADMIN_ERRORS, 403: `${ADMIN_ERRORS[403]}; forbidden also when the key is another member's`, 404: 'no such key in this workspace' },
      handler: async (ctx, { params }) => {
        const actor = adminActorOf(ctx);
        const holderOnly = can(actor.role, 'api_keys.manage_any') ? undefined : actor.userId;
        return {
          data: await revokeInWorkspace(deps.orm, 'api_keys', { organizationId: actor.organizationId, id: params.id, actor: auditActorOf(actor), holderOnly }),
          message: 'API key revoked',
        };
      },
    }),
  ];
}
