import { z } from 'zod';
import { ADMIN_ERRORS, auditActorOf, authorizedActor, type AdminDeps } from '../../../api/dashboard/admin-kit';
import { SlackChannelsSchema, SlackManifestSchema } from '../../../api/dashboard/routes/integration-schemas';
import { defineRoute, type RouteSpec } from '../../../api/http/route-spec';
import { listSlackChannels } from './channels';
import { disconnectSlack, slackInstallUrl } from './connect';
import { slackManifest } from './manifest';
import { SLACK_OAUTH_STATE_PURPOSE } from './oauth-state';
import { slackSettings } from './config';

const MANAGE = 'Billing Owner or Account Admin (integrations.manage)';
const NOT_CONFIGURED = 'slack_not_configured: SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_SIGNING_SECRET are not set';

/**
 * Slack under /api/integrations/slack (docs/chat.md): connecting and disconnecting the
 * workspace's Slack, its channels for the per-service picker, and the Slack app manifest.
 */
export function slackDashboardRoutes(deps: AdminDeps): RouteSpec[] {
  const slack = slackSettings(deps.notify);
  const slackDeps = { orm: deps.orm, sealer: deps.webhooks.sealer, slack };
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/integrations/slack/install',
      summary: `Start connecting Slack: a 302 to Slack’s authorize page with a signed, single-use state valid 10 minutes (${MANAGE}; STARTER and above)`,
      operationId: 'installSlack',
      success: { status: 302, description: 'to Slack; Slack sends the browser back to /hooks/slack/oauth', schema: z.null() },
      errors: { ...ADMIN_ERRORS, 403: `${ADMIN_ERRORS[403]}: forbidden unless a ${MANAGE}; plan_limit_reached on FREE`, 409: NOT_CONFIGURED },
      handler: async (ctx) => {
        const actor = await authorizedActor(deps.orm, ctx, 'integrations.manage');
        const who = { organizationId: actor.organizationId, userId: actor.userId, sessionId: actor.sessionId };
        return { data: null, redirect: await slackInstallUrl({ ...slackDeps, appUrl: deps.appUrl, stateKey: deps.deriveKey(SLACK_OAUTH_STATE_PURPOSE) }, who) };
      },
    }),
    defineRoute({
      method: 'delete',
      access: 'write',
      path: '/integrations/slack',
      summary: `Disconnect Slack: forget the bot token and every service’s Slack channel (${MANAGE}); idempotent`,
      operationId: 'disconnectSlack',
      success: { status: 204, description: 'disconnected (or was not connected)', schema: z.null() },
      errors: { ...ADMIN_ERRORS, 403: `${ADMIN_ERRORS[403]}: forbidden unless a ${MANAGE}` },
      handler: async (ctx) => {
        const actor = await authorizedActor(deps.orm, ctx, 'integrations.manage');
        await disconnectSlack(deps.orm, { organizationId: actor.organizationId, audit: auditActorOf(actor) });
        return { data: null };
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/integrations/slack/channels',
      summary: 'The connected Slack’s public channels and the private ones the app was invited to, not archived (any member)',
      operationId: 'listSlackChannels',
      success: { status: 200, description: '`{channels: [{id, name, is_private}]}`, by name', schema: SlackChannelsSchema },
      errors: {
        ...ADMIN_ERRORS,
        409: `slack_not_connected: the workspace has not connected Slack; ${NOT_CONFIGURED}`,
        503: 'slack_unavailable: Slack failed or could not be reached; service_unavailable',
      },
      handler: async (ctx) => {
        const actor = await authorizedActor(deps.orm, ctx, 'workspace.read');
        const channels = await listSlackChannels(slackDeps, actor.organizationId);
        return { data: { channels }, message: `${channels.length} channel(s)` };
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/integrations/slack/manifest',
      summary: 'The Slack app manifest with this Klaxon’s URLs, to paste into api.slack.com/apps (any member)',
      operationId: 'getSlackManifest',
      success: { status: 200, description: 'the manifest itself, not in the envelope', schema: SlackManifestSchema },
      errors: ADMIN_ERRORS,
      handler: async (ctx) => {
        await authorizedActor(deps.orm, ctx, 'workspace.read');
        const manifest = slackManifest(deps.appUrl);
        return { data: manifest, exactBody: manifest };
      },
    }),
  ];
}
