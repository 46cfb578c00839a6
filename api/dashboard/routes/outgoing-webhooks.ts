import { z } from 'zod';
import {
  createOutgoingWebhook,
  deleteOutgoingWebhook,
  getOutgoingWebhook,
  listDeliveries,
  listOutgoingWebhooks,
  queueTestPing,
  redeliver,
  updateOutgoingWebhook,
  type OutgoingWebhookActor,
  type OutgoingWebhookDeps,
  type SubscriptionSettings,
} from '../../../src/services/outgoing-webhooks';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, adminActorOf, auditActorOf, IdParams, PageQuery, pageMeta, type AdminDeps } from '../admin-kit';
import {
  CreatedOutgoingWebhookSchema,
  CreateOutgoingWebhookBody,
  DeliveryParams,
  DeliverySchema,
  OutgoingWebhookSchema,
  UpdateOutgoingWebhookBody,
} from './outgoing-webhook-schemas';

const WHO = 'Billing Owner, Account Admin, or a Team Manager for a subscription limited to their teams’ services';
const ERRORS = {
  ...ADMIN_ERRORS,
  403: `${ADMIN_ERRORS[403]}: forbidden unless a ${WHO}; plan_limit_reached on FREE, or at the plan’s number of outgoing webhooks (STARTER 5, PRO 20, BUSINESS 100)`,
  404: 'no such outgoing webhook in this workspace',
} as const;
const INPUT_ERRORS = `${ADMIN_ERRORS[400]}: url (not https, a private address unless ALLOW_PRIVATE_TARGETS, a cloud metadata address), event_types (unknown type), service_ids (no such service)`;

/** The body's settings in the service's terms (only the fields given). */
function settingsOf(b: Partial<z.infer<typeof UpdateOutgoingWebhookBody>>): Partial<SubscriptionSettings> {
  const s: Partial<SubscriptionSettings> = {};
  if (b.url !== undefined) s.url = b.url;
  if (b.description !== undefined) s.description = b.description === '' ? null : b.description;
  if (b.event_types !== undefined) s.eventTypes = b.event_types;
  if (b.service_ids !== undefined) s.serviceIds = b.service_ids;
  if (b.enabled !== undefined) s.enabled = b.enabled;
  return s;
}

/**
 * Outgoing webhooks under /api (docs/api/outgoing-webhooks.md): the customer's endpoints that
 * receive incident events, signed (Standard Webhooks). Reading and changing them both need a
 * Billing Owner, an Account Admin, or a Team Manager (only subscriptions limited to their teams'
 * services); a Member is refused.
 */
export function outgoingWebhookRoutes(deps: AdminDeps): RouteSpec[] {
  const svc: OutgoingWebhookDeps = {
    orm: deps.orm,
    sealer: deps.webhooks.sealer,
    allowPrivate: deps.targets?.allowPrivate ?? deps.monitors?.allowPrivate ?? false,
  };
  const actorOf = (ctx: Parameters<RouteSpec['handler']>[0]): OutgoingWebhookActor => {
    const a = adminActorOf(ctx);
    return { organizationId: a.organizationId, userId: a.userId, role: a.role, audit: auditActorOf(a) };
  };
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/outgoing-webhooks',
      summary: `List outgoing webhooks (${WHO}: a Team Manager sees theirs)`,
      operationId: 'listOutgoingWebhooks',
      success: { status: 200, description: 'the subscriptions, oldest first (never their secrets)', schema: z.array(OutgoingWebhookSchema) },
      errors: ERRORS,
      handler: async (ctx) => {
        const data = await listOutgoingWebhooks(svc, actorOf(ctx));
        return { data, meta: { total: data.length }, message: `${data.length} outgoing webhook(s)` };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/outgoing-webhooks',
      summary: `Subscribe an endpoint to incident events (${WHO}; STARTER and above)`,
      operationId: 'createOutgoingWebhook',
      body: CreateOutgoingWebhookBody,
      success: { status: 201, description: 'the subscription with its signing secret (shown this once)', schema: CreatedOutgoingWebhookSchema },
      errors: { ...ERRORS, 400: INPUT_ERRORS },
      handler: async (ctx, { body }) => {
        const data = await createOutgoingWebhook(svc, actorOf(ctx), { ...settingsOf(body), url: body.url });
        return { data, message: 'outgoing webhook created; keep its signing secret: it is not shown again' };
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/outgoing-webhooks/{id}',
      summary: `One outgoing webhook (${WHO})`,
      operationId: 'getOutgoingWebhook',
      params: IdParams,
      success: { status: 200, description: 'the subscription (never its secret)', schema: OutgoingWebhookSchema },
      errors: ERRORS,
      handler: async (ctx, { params }) => ({ data: await getOutgoingWebhook(svc, actorOf(ctx), params.id) }),
    }),
    defineRoute({
      method: 'put',
      access: 'write',
      path: '/outgoing-webhooks/{id}',
      summary: `Change some of an outgoing webhook’s settings, or enable/disable it (${WHO})`,
      operationId: 'updateOutgoingWebhook',
      params: IdParams,
      body: UpdateOutgoingWebhookBody,
      success: { status: 200, description: 'the subscription after the change', schema: OutgoingWebhookSchema },
      errors: { ...ERRORS, 400: INPUT_ERRORS },
      handler: async (ctx, { params, body }) => ({
        data: await updateOutgoingWebhook(svc, actorOf(ctx), params.id, settingsOf(body)),
        message: 'outgoing webhook updated',
      }),
    }),
    defineRoute({
      method: 'delete',
      access: 'write',
      path: '/outgoing-webhooks/{id}',
      summary: `Delete an outgoing webhook and its delivery log; nothing more is sent to it (${WHO})`,
      operationId: 'deleteOutgoingWebhook',
      params: IdParams,
      success: { status: 200, description: 'deleted', schema: z.object({ id: z.uuid(), deleted: z.literal(true) }) },
      errors: ERRORS,
      handler: async (ctx, { params }) => ({ data: await deleteOutgoingWebhook(svc, actorOf(ctx), params.id), message: 'outgoing webhook deleted' }),
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/outgoing-webhooks/{id}/test',
      summary: `Queue a \`ping\` event to the endpoint, delivered and signed like any event (${WHO})`,
      operationId: 'testOutgoingWebhook',
      params: IdParams,
      success: { status: 202, description: 'the queued delivery (pending until the delivery engine sends it)', schema: DeliverySchema },
      errors: ERRORS,
      handler: async (ctx, { params }) => ({ data: await queueTestPing(deps.orm, actorOf(ctx), params.id), message: 'test ping queued' }),
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/outgoing-webhooks/{id}/deliveries',
      summary: `An outgoing webhook’s deliveries, newest first (${WHO})`,
      operationId: 'listOutgoingWebhookDeliveries',
      params: IdParams,
      query: PageQuery,
      success: { status: 200, description: 'a page of deliveries (default 50), newest first', schema: z.array(DeliverySchema) },
      errors: ERRORS,
      handler: async (ctx, { params, query }) => {
        const { deliveries, total } = await listDeliveries(deps.orm, actorOf(ctx), params.id, query);
        return { data: deliveries, meta: pageMeta(total, query) };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/outgoing-webhooks/{id}/deliveries/{delivery_id}/redeliver',
      summary: `Send a delivery again: a new delivery of the same event (same event_id, the \`webhook-id\` header), due now (${WHO})`,
      operationId: 'redeliverOutgoingWebhookDelivery',
      params: DeliveryParams,
      success: { status: 202, description: 'the new delivery (pending)', schema: DeliverySchema },
      errors: { ...ERRORS, 404: 'no such outgoing webhook or delivery in this workspace' },
      handler: async (ctx, { params }) => ({ data: await redeliver(deps.orm, actorOf(ctx), params.id, params.delivery_id), message: 'redelivery queued' }),
    }),
  ];
}
