import { z } from 'zod';
import { recordAudit } from '../../../src/services/audit';
import { TEST_NOTIFICATION_REFUSAL } from '../../../src/services/throttles';
import {
  createInboundWebhook,
  deleteInboundWebhook,
  getInboundWebhook,
  listInboundWebhooks,
  sendTestNotification,
} from '../../../src/services/inbound-webhooks';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, adminActorOf, auditActorOf, IdParams, type AdminActor, type AdminDeps, authorizedActor } from '../admin-kit';
import { CreatedWebhookSchema, CreateWebhookBody, TestResultSchema, WebhookListBody, WebhookListQuery, WebhookSchema } from './inbound-webhook-schemas';

const MANAGE = 'Billing Owner, Account Admin, or a Team Manager of the team owning its service';
const MANAGE_ERRORS = { ...ADMIN_ERRORS, 403: `${ADMIN_ERRORS[403]}: a ${MANAGE}`, 404: 'no such webhook in this workspace' } as const;
const THROTTLED = `rate_limited: ${TEST_NOTIFICATION_REFUSAL}`;

/**
 * The spec's dashboard webhook routes: the webhooks (sources with channels) of the session's
 * workspace, through the one webhook service of every surface (docs/architecture.md, "Inbound webhooks"). Any member reads;
 * creating, deleting and testing need a Billing Owner, an Account Admin, or a Team Manager of
 * the owning team.
 */
export function inboundWebhooksRoutes(deps: AdminDeps): RouteSpec[] {
  const w = deps.webhooks;
  const audit = (actor: AdminActor, action: string, targetId: string, details: Record<string, unknown>) =>
    recordAudit(deps.orm, { organizationId: actor.organizationId, actor: auditActorOf(actor), action, targetType: 'webhook', targetId, details });
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/webhooks',
      summary: 'List webhooks (any member)',
      operationId: 'listDashboardWebhooks',
      query: WebhookListQuery,
      success: {
        status: 200,
        description: 'exactly {success, webhooks, total}: a page (default the first 100) of the workspace’s webhooks, oldest first',
        schema: WebhookListBody,
      },
      errors: ADMIN_ERRORS,
      handler: async (ctx, { query }) => {
        const actor = await authorizedActor(deps.orm, ctx, 'workspace.read');
        const { webhooks, total } = await listInboundWebhooks(w, actor.organizationId, query);
        return { data: webhooks, exactBody: { success: true, webhooks, total } };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/webhooks',
      summary: `Create a webhook from the dashboard form (${MANAGE})`,
      operationId: 'createDashboardWebhook',
      body: CreateWebhookBody,
      success: { status: 201, description: 'the webhook with its ingestion URL and its signing secret (shown this once)', schema: CreatedWebhookSchema },
      errors: {
        ...MANAGE_ERRORS,
        403: `${MANAGE_ERRORS[403]}; plan_limit_reached: the plan’s number of sources and webhooks is reached`,
        404: 'no such service in this workspace',
      },
      handler: async (ctx, { body }) => {
        const actor = adminActorOf(ctx);
        const created = await createInboundWebhook(w, actor, {
          name: body.name,
          description: body.description,
          channels: body.notificationTypes.map((t) => t.toLowerCase()),
          targetChannels: body.targetChannels,
          serviceId: body.service_id,
        });
        await audit(actor, 'webhook.create', created.id, {
          name: created.name,
          service_id: created.service_id,
          notification_types: created.notification_types,
          targets: Object.keys(created.target_channels),
        });
        return { data: created, message: 'webhook created; keep its signing secret: it is not shown again' };
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/webhooks/{id}',
      summary: 'Read a webhook (any member)',
      operationId: 'getDashboardWebhook',
      params: IdParams,
      success: { status: 200, description: 'the webhook (never its signing secret)', schema: WebhookSchema },
      errors: { ...ADMIN_ERRORS, 404: 'no such webhook in this workspace' },
      handler: async (ctx, { params }) => {
        const actor = await authorizedActor(deps.orm, ctx, 'workspace.read');
        return { data: await getInboundWebhook(w, actor.organizationId, params.id), message: 'ok' };
      },
    }),
    defineRoute({
      method: 'delete',
      access: 'write',
      path: '/webhooks/{id}',
      summary: `Delete a webhook and its data: the row, URLs (404 from now on), statistics, idempotency records; its incidents remain (${MANAGE})`,
      operationId: 'deleteDashboardWebhook',
      params: IdParams,
      success: { status: 200, description: 'deleted', schema: z.object({ id: z.uuid(), deleted: z.literal(true) }) },
      errors: MANAGE_ERRORS,
      handler: async (ctx, { params }) => {
        const actor = adminActorOf(ctx);
        const before = await getInboundWebhook(w, actor.organizationId, params.id);
        const deleted = await deleteInboundWebhook(w, actor, params.id, 'webhooks', 'purge');
        await audit(actor, 'webhook.delete', deleted.id, { name: before.name, service_id: before.service_id });
        return { data: deleted, message: 'webhook deleted; its ingestion URL and receiver answer 404, its incidents remain' };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/webhooks/{id}/test',
      summary: `Send a real test notification on each of the webhook’s channels, to its targets or, without one, to you (${MANAGE})`,
      operationId: 'testDashboardWebhook',
      params: IdParams,
      success: { status: 200, description: 'what was sent where; FREE sends every channel by email (fallback_reason)', schema: TestResultSchema },
      errors: { ...MANAGE_ERRORS, 429: THROTTLED },
      handler: async (ctx, { params }) => {
        const actor = adminActorOf(ctx);
        const admit = (webhookId: string) => deps.throttles.testNotification.take(actor.organizationId, webhookId);
        const result = await sendTestNotification({ orm: deps.orm, senders: deps.senders }, actor, params.id, { admit });
        await audit(actor, 'webhook.test', result.webhook_id, {
          sends: result.sends.map((s) => ({
            notification_type: s.notification_type,
            channel: s.channel,
            recipient: s.recipient,
            status: s.status,
            provider: s.provider,
          })),
        });
        const sent = result.sends.filter((s) => s.status === 'sent').length;
        const byEmail = result.email_only ? `; the ${result.plan} plan pages by email only, so every channel went by email` : '';
        return { data: result, message: `${sent} of ${result.sends.length} test notification(s) sent${byEmail}` };
      },
    }),
  ];
}
