import {
  createInboundWebhook,
  deleteInboundWebhook,
  getInboundWebhook,
  listInboundWebhooks,
  rotateSigningSecret,
  updateInboundWebhook,
  type InboundWebhookDeps,
} from '../../src/services/inbound-webhooks';
import { defineRoute, type RouteSpec } from '../http/route-spec';
import { keyPrincipalOf } from './auth';
import { pageOf } from './envelope';
import { CreatedWebhookSchema, CreateWebhookBody, DeletedSchema, IdParams, PageQuery, SigningSecretSchema, UpdateWebhookBody, WebhookSchema } from './schemas';
import { z } from 'zod';

export const AUTH_ERRORS = {
  401: 'missing, invalid or revoked API key',
  429: 'rate limit exceeded for this API key (see Retry-After and X-RateLimit-*)',
  503: 'service_unavailable: the database or Temporal cannot be reached; retry after `Retry-After` seconds',
} as const;
const MANAGE_ERRORS = {
  ...AUTH_ERRORS,
  400: 'invalid body',
  403: 'needs an Account Admin, a Billing Owner or a Team Manager of the owning team; or plan_limit_reached',
} as const;

/** /v1/webhooks (spec surface c): any member reads; admins and the owning team's managers change. */
export function inboundWebhookRoutes(deps: InboundWebhookDeps): RouteSpec[] {
  const actorOf = (ctx: Parameters<RouteSpec['handler']>[0]) => {
    const p = keyPrincipalOf(ctx);
    return { organizationId: p.organizationId, userId: p.userId, role: p.role };
  };
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/webhooks',
      summary: 'List webhooks',
      operationId: 'listInboundWebhooks',
      query: PageQuery,
      success: { status: 200, description: 'a page of the workspace’s webhooks, oldest first; meta.total counts them all', schema: z.array(WebhookSchema) },
      errors: { ...AUTH_ERRORS, 400: 'invalid limit or offset' },
      handler: async (ctx, { query }) => {
        const { webhooks, total } = await listInboundWebhooks(deps, keyPrincipalOf(ctx).organizationId, query);
        return pageOf(webhooks, total, query, 'webhook');
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/webhooks',
      summary: 'Create a webhook',
      operationId: 'createInboundWebhook',
      body: CreateWebhookBody,
      success: { status: 201, description: 'the webhook, with its signing secret shown this once', schema: CreatedWebhookSchema },
      errors: MANAGE_ERRORS,
      handler: async (ctx, { body }) => {
        const created = await createInboundWebhook(deps, actorOf(ctx), {
          name: body.name,
          channels: body.channels,
          description: body.description,
          alias: body.alias,
          serviceId: body.service_id,
          ipAllowlist: body.ip_allowlist,
          signed: body.signed,
        });
        return { data: created, message: 'webhook created; keep its signing secret: it is not shown again' };
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/webhooks/{id}',
      summary: 'Get a webhook',
      operationId: 'getInboundWebhook',
      params: IdParams,
      success: { status: 200, description: 'the webhook (never its signing secret)', schema: WebhookSchema },
      errors: { ...AUTH_ERRORS, 404: 'no such webhook in this workspace' },
      handler: async (ctx, { params }) => ({ data: await getInboundWebhook(deps, keyPrincipalOf(ctx).organizationId, params.id), message: 'ok' }),
    }),
    defineRoute({
      method: 'put',
      access: 'write',
      path: '/webhooks/{id}',
      summary: 'Update a webhook (name, channels, description, alias, status ACTIVE/PAUSED, ip_allowlist)',
      operationId: 'updateInboundWebhook',
      params: IdParams,
      body: UpdateWebhookBody,
      success: { status: 200, description: 'the webhook as changed', schema: WebhookSchema },
      errors: { ...MANAGE_ERRORS, 404: 'no such webhook in this workspace' },
      handler: async (ctx, { params, body }) => ({
        data: await updateInboundWebhook(deps, actorOf(ctx), params.id, {
          name: body.name,
          channels: body.channels,
          description: body.description,
          alias: body.alias,
          status: body.status,
          ipAllowlist: body.ip_allowlist,
        }),
        message: 'webhook updated',
      }),
    }),
    defineRoute({
      method: 'delete',
      access: 'write',
      path: '/webhooks/{id}',
      summary: 'Delete a webhook: its URLs stop working and its statistics go; its alerts and incidents remain',
      operationId: 'deleteInboundWebhook',
      params: IdParams,
      success: { status: 200, description: 'deleted', schema: DeletedSchema },
      errors: { ...MANAGE_ERRORS, 404: 'no such webhook in this workspace' },
      handler: async (ctx, { params }) => ({ data: await deleteInboundWebhook(deps, actorOf(ctx), params.id), message: 'webhook deleted' }),
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/webhooks/{id}/rotate-secret',
      summary: 'Replace the signing secret: the old one stops verifying at once',
      operationId: 'rotateWebhookSecret',
      params: IdParams,
      success: { status: 200, description: 'the new signing secret, shown this once', schema: SigningSecretSchema },
      errors: { ...MANAGE_ERRORS, 404: 'no such webhook in this workspace' },
      handler: async (ctx, { params }) => ({
        data: await rotateSigningSecret(deps, actorOf(ctx), params.id),
        message: 'signing secret rotated; keep it: it is not shown again',
      }),
    }),
  ];
}
