import { z } from 'zod';
import { CHAT_MIN_PLAN, PLAN_LIMITS } from '../../domain/plans';
import { sendTeamsTestCard, TEAMS_TEST_TIMEOUT_MS } from './test-card';
import { forbidden } from '../../services/errors';
import { TEST_SEND_REFUSAL } from '../../services/throttles';
import { getServiceDetail } from '../../services/workspace/catalog';
import { defineRoute, type RouteSpec } from '../../../api/http/route-spec';
import { sessionOf } from '../../../api/dashboard/guards';
import { ADMIN_ERRORS, adminActorOf, authorize, IdParams, type AdminDeps } from '../../../api/dashboard/admin-kit';

const MANAGE = 'Billing Owner, Account Admin, or a Team Manager in the owning team';

const TeamsTestResultSchema = z.object({
  delivered: z.boolean().describe('Teams answered 2xx'),
  status_code: z.number().int().nullable().describe('what Teams answered; null when no answer came (refused by the SSRF guard, DNS, connection, timeout)'),
  error: z.string().nullable().describe('why it was not delivered; never the URL'),
});

/**
 * Microsoft Teams under /api (docs/chat.md, "Microsoft Teams"): a test card to a service's Teams
 * Workflows webhook. The URL itself is set with the service's chat settings.
 */
export function microsoftTeamsRoutes(deps: AdminDeps): RouteSpec[] {
  const svc = {
    orm: deps.orm,
    sealer: deps.webhooks.sealer,
    appUrl: deps.appUrl,
    allowPrivate: deps.targets?.allowPrivate ?? deps.monitors?.allowPrivate ?? false,
  };
  return [
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/services/{id}/chat/teams/test',
      summary: `Post a test card to the service’s Microsoft Teams webhook now (${MANAGE}; ${CHAT_MIN_PLAN} and above)`,
      operationId: 'testServiceTeamsWebhook',
      params: IdParams,
      success: {
        status: 200,
        description: `how the test card went, within ${TEAMS_TEST_TIMEOUT_MS / 1000} s, through the SSRF guard (delivered false is still a 200)`,
        schema: TeamsTestResultSchema,
      },
      errors: {
        ...ADMIN_ERRORS,
        403: `${ADMIN_ERRORS[403]}: services.manage needs a ${MANAGE}; plan_limit_reached on FREE (chat is ${CHAT_MIN_PLAN} and above)`,
        404: 'no such service in this workspace',
        409: 'teams_not_configured: the service has no Microsoft Teams webhook URL',
        429: `rate_limited: ${TEST_SEND_REFUSAL}`,
      },
      handler: async (ctx, { params }) => {
        const actor = adminActorOf(ctx);
        const service = await getServiceDetail(deps.orm, actor.organizationId, params.id);
        await authorize(deps.orm, actor, 'services.manage', service.owning_team_id);
        const { plan } = sessionOf(ctx as never).organization;
        if (!PLAN_LIMITS[plan].chat) throw forbidden(`the ${plan} plan does not include chat (${CHAT_MIN_PLAN} and above do)`, 'plan_limit_reached');
        const admit = () => deps.throttles.testSend.take(actor.organizationId, actor.userId);
        const result = await sendTeamsTestCard(svc, { id: service.id, name: service.name }, { admit });
        return { data: result, message: result.delivered ? 'the test card was delivered' : 'the test card was not delivered' };
      },
    }),
  ];
}
