import { can } from '../../../src/domain/permissions';
import { changeServiceChat, readServiceChat } from '../../../src/services/chat/destinations';
import { getServiceDetail } from '../../../src/services/workspace/catalog';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, adminActorOf, auditActorOf, authorize, authorizedActor, IdParams, inTeam, type AdminDeps } from '../admin-kit';
import { ServiceChatSchema, UpdateServiceChatBody } from './integration-schemas';

const MANAGE = 'Billing Owner, Account Admin, or a Team Manager in the owning team (services.manage)';

/**
 * A service's chat destinations under /api (docs/chat.md, "Per-service destinations"): its
 * Slack channel and its Teams Workflows URL. Any member reads (the URL masked unless they may
 * change the service); services.manage changes them.
 */
export function serviceChatRoutes(deps: AdminDeps): RouteSpec[] {
  const destinations = {
    orm: deps.orm,
    sealer: deps.webhooks.sealer,
    slack: deps.notify.slack,
    allowPrivate: deps.targets?.allowPrivate ?? deps.monitors?.allowPrivate ?? false,
  };
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/services/{id}/chat',
      summary: 'A service’s Slack channel and Teams Workflows URL (any member; the URL in full only with services.manage)',
      operationId: 'getServiceChat',
      params: IdParams,
      success: { status: 200, description: 'its destinations; nulls: none', schema: ServiceChatSchema },
      errors: { ...ADMIN_ERRORS, 404: 'no such service in this workspace' },
      handler: async (ctx, { params }) => {
        const actor = await authorizedActor(deps.orm, ctx, 'workspace.read');
        const service = await getServiceDetail(deps.orm, actor.organizationId, params.id);
        const inOwningTeam = actor.role === 'TEAM_MANAGER' && (await inTeam(deps.orm, actor.userId, service.owning_team_id));
        return { data: await readServiceChat(destinations, service.id, can(actor.role, 'services.manage', { inOwningTeam })) };
      },
    }),
    defineRoute({
      method: 'put',
      access: 'write',
      path: '/services/{id}/chat',
      summary: `Set or clear a service’s Slack channel and Teams Workflows URL (${MANAGE}; STARTER and above to set one)`,
      operationId: 'updateServiceChat',
      params: IdParams,
      body: UpdateServiceChatBody,
      success: { status: 200, description: 'its destinations as now stored', schema: ServiceChatSchema },
      errors: {
        ...ADMIN_ERRORS,
        400: `${ADMIN_ERRORS[400]}: slack_channel_id (not a channel id, or no such channel in the connected Slack), teams_webhook_url (not https, a private address unless ALLOW_PRIVATE_TARGETS, a cloud metadata address)`,
        403: `${ADMIN_ERRORS[403]}: forbidden unless a ${MANAGE}; plan_limit_reached on FREE when setting a destination`,
        404: 'no such service in this workspace',
        409: 'slack_not_connected: a Slack channel was given but the workspace has not connected Slack; slack_not_configured',
        503: 'slack_unavailable: Slack could not confirm the channel; nothing was changed',
      },
      handler: async (ctx, { params, body }) => {
        const actor = adminActorOf(ctx);
        const service = await getServiceDetail(deps.orm, actor.organizationId, params.id);
        await authorize(deps.orm, actor, 'services.manage', service.owning_team_id);
        const input = { slackChannelId: body.slack_channel_id, teamsWebhookUrl: body.teams_webhook_url };
        const data = await changeServiceChat(destinations, { organizationId: actor.organizationId, serviceId: service.id, audit: auditActorOf(actor) }, input);
        return { data, message: 'chat destinations saved' };
      },
    }),
  ];
}
