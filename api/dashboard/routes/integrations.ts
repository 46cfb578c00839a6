import { listIntegrations } from '../../../src/services/chat/integrations';
import { chatProviders } from '../../../src/integrations/registry';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, authorizedActor, type AdminDeps } from '../admin-kit';
import { IntegrationsSchema } from './integration-schemas';

/**
 * Chat integrations under /api (docs/chat.md): what is connected. Each integration's own routes
 * (connecting Slack, a Teams test card) come from its module through the registry.
 */
export function integrationRoutes(deps: AdminDeps): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/integrations',
      summary:
        'Chat integrations: Slack (configured, connected, which Slack workspace), then every chat provider set per service (Microsoft Teams, …) (any member)',
      operationId: 'listIntegrations',
      success: { status: 200, description: '`{integrations: [slack, …chat providers]}`; never a token or URL', schema: IntegrationsSchema },
      errors: ADMIN_ERRORS,
      handler: async (ctx) => {
        const actor = await authorizedActor(deps.orm, ctx, 'workspace.read');
        return { data: { integrations: await listIntegrations({ orm: deps.orm, notify: deps.notify, chatProviders: chatProviders() }, actor.organizationId) } };
      },
    }),
  ];
}
