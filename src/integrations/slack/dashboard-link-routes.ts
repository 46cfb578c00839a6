import { z } from 'zod';
import { linkSlackAccount, unlinkSlackAccount } from './link';
import { slackSettings } from './config';
import { defineRoute, type RouteSpec } from '../../../api/http/route-spec';
import { ADMIN_ERRORS, adminActorOf, auditActorOf, requireVerified, type AdminDeps } from '../../../api/dashboard/admin-kit';

const ContactSchema = z.object({
  id: z.uuid(),
  organization_id: z.uuid(),
  user_id: z.uuid(),
  type: z.literal('slack'),
  address: z.string().describe('the Slack member id (U…)'),
  label: z.string().nullable().describe('the Slack workspace’s name'),
  disabled_at: z.iso.datetime().nullable(),
  disabled_reason: z.string().nullable(),
  verified_at: z.iso.datetime().nullable(),
  source: z.enum(['import']).nullable(),
  created_at: z.iso.datetime(),
});

/**
 * Linking my Slack account (docs/chat.md, "Slack DMs"): the workspace's Slack app finds the Slack
 * member with my verified email, and their id becomes my `slack` contact method; notification
 * rules then page me by Slack DM. Unlinking removes it with its rules.
 */
export function slackLinkRoutes(deps: AdminDeps): RouteSpec[] {
  return [
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/me/slack/link',
      summary: 'Link my Slack account: the Slack member with my verified email becomes my slack contact method (STARTER and above)',
      operationId: 'linkMySlackAccount',
      success: { status: 200, description: 'my slack contact method (made, or pointed at the Slack member found)', schema: ContactSchema },
      errors: {
        ...ADMIN_ERRORS,
        403: 'plan_limit_reached (FREE has no Slack); email_unverified (verify your email first)',
        404: 'slack_user_not_found: nobody in the connected Slack workspace has my email',
        409: 'slack_not_connected: the workspace has no Slack installation (or Slack is not configured)',
        503: 'slack_unavailable: Slack could not be asked; nothing was changed',
      },
      handler: async (ctx) => {
        const actor = adminActorOf(ctx);
        requireVerified(actor, 'link Slack');
        const contact = await linkSlackAccount(
          { orm: deps.orm, sealer: deps.webhooks.sealer, apiUrl: slackSettings(deps.notify)?.apiUrl },
          { organizationId: actor.organizationId, userId: actor.userId, actor: auditActorOf(actor) },
        );
        return { data: contact, message: 'Slack linked: add a notification rule on it to be paged by Slack DM' };
      },
    }),
    defineRoute({
      method: 'delete',
      access: 'write',
      path: '/me/slack/link',
      summary: 'Unlink my Slack account: my slack contact method and its notification rules are removed',
      operationId: 'unlinkMySlackAccount',
      success: { status: 204, description: 'unlinked (also when nothing was linked)', schema: z.null() },
      errors: ADMIN_ERRORS,
      handler: async (ctx) => {
        const actor = adminActorOf(ctx);
        await unlinkSlackAccount(deps.orm, { organizationId: actor.organizationId, userId: actor.userId, actor: auditActorOf(actor) });
        return { data: null };
      },
    }),
  ];
}
