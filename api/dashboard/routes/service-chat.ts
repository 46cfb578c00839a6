import { can } from '../../../src/domain/permissions';
import { z } from 'zod';
import { changeServiceChat, deleteServiceDestination, putServiceDestination, readServiceChat } from '../../../src/services/chat/destinations';
import { chatProvider, chatProviders } from '../../../src/integrations/registry';
import { notFound } from '../../../src/services/errors';
import { getServiceDetail } from '../../../src/services/workspace/catalog';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, adminActorOf, auditActorOf, authorize, authorizedActor, IdParams, inTeam, type AdminDeps } from '../admin-kit';
import { ChatDestinationParams, ChatDestinationSchema, PutChatDestinationBody, ServiceChatSchema, UpdateServiceChatBody } from './integration-schemas';

const MANAGE = 'Billing Owner, Account Admin, or a Team Manager in the owning team (services.manage)';

/** The chat provider a path names, from the registry; 404 when no module declares it. */
function providerOf(key: string) {
  const provider = chatProvider(key);
  if (!provider) throw notFound(`no chat provider ${key}`);
  return provider;
}

/**
 * A service's chat destinations under /api (docs/chat.md, "Per-service destinations"): every
 * provider it posts to, one `PUT`/`DELETE /services/{id}/chat/{provider}` each, validated by the
 * provider's own schema; and the Slack channel and Teams URL route of before, on the same store.
 * Any member reads (secrets masked); services.manage changes them.
 */
export function serviceChatRoutes(deps: AdminDeps): RouteSpec[] {
  const destinations = {
    orm: deps.orm,
    sealer: deps.webhooks.sealer,
    notify: deps.notify,
    allowPrivate: deps.targets?.allowPrivate ?? deps.monitors?.allowPrivate ?? false,
    providers: chatProviders(),
  };
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/services/{id}/chat',
      summary:
        'A service’s chat destinations: every provider it posts to (secrets masked), and its Slack channel and Teams Workflows URL (any member; the URL in full only with services.manage)',
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
    defineRoute({
      method: 'put',
      access: 'write',
      path: '/services/{id}/chat/{provider}',
      summary: `Set a service’s destination in one chat provider, e.g. microsoft-teams, discord, mattermost (${MANAGE}; STARTER and above)`,
      operationId: 'putServiceChatDestination',
      params: ChatDestinationParams,
      body: PutChatDestinationBody,
      success: { status: 200, description: '`{provider, settings}` as now stored, secret fields masked', schema: ChatDestinationSchema },
      errors: {
        ...ADMIN_ERRORS,
        400: `${ADMIN_ERRORS[400]}: settings.<field> refused by the provider’s schema, or a URL field that is not https, a private address unless ALLOW_PRIVATE_TARGETS, a cloud metadata address; nothing changes`,
        403: `${ADMIN_ERRORS[403]}: forbidden unless a ${MANAGE}; plan_limit_reached on FREE`,
        404: 'no such service in this workspace, or no chat provider by that key',
      },
      handler: async (ctx, { params, body }) => {
        const provider = providerOf(params.provider);
        const actor = adminActorOf(ctx);
        const service = await getServiceDetail(deps.orm, actor.organizationId, params.id);
        await authorize(deps.orm, actor, 'services.manage', service.owning_team_id);
        const where = { organizationId: actor.organizationId, serviceId: service.id, audit: auditActorOf(actor) };
        const data = await putServiceDestination(destinations, where, provider, body.settings);
        return { data, message: `${provider.chat.label} destination saved` };
      },
    }),
    defineRoute({
      method: 'delete',
      access: 'write',
      path: '/services/{id}/chat/{provider}',
      summary: `Remove a service’s destination in one chat provider (${MANAGE}); idempotent`,
      operationId: 'deleteServiceChatDestination',
      params: ChatDestinationParams,
      success: { status: 204, description: 'removed (or there was none)', schema: z.null() },
      errors: { ...ADMIN_ERRORS, 404: 'no such service in this workspace, or no chat provider by that key' },
      handler: async (ctx, { params }) => {
        const provider = providerOf(params.provider);
        const actor = adminActorOf(ctx);
        const service = await getServiceDetail(deps.orm, actor.organizationId, params.id);
        await authorize(deps.orm, actor, 'services.manage', service.owning_team_id);
        await deleteServiceDestination(destinations, { organizationId: actor.organizationId, serviceId: service.id, audit: auditActorOf(actor) }, provider);
        return { data: null };
      },
    }),
  ];
}
