import { z } from 'zod';
import { knexOf } from '../../../src/db/knex';
import { FEED_DELIVERY_STATUSES, listFeedDeliveries } from '../../../src/services/incident-feed';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, authorizedActor, type AdminDeps } from '../admin-kit';

const MANAGE = 'Billing Owner or Account Admin (integrations.manage)';

export const FeedDeliveriesQuery = z
  .object({
    consumer: z
      .string()
      .max(40)
      .regex(/^[a-z][a-z0-9-]*$/, 'must be a consumer key such as outgoing-webhooks, slack or microsoft-teams')
      .optional(),
    status: z.enum(FEED_DELIVERY_STATUSES).optional(),
    cursor: z
      .string()
      .regex(/^[0-9]{1,19}$/, 'must be the next_cursor of the page before')
      .optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  })
  .strict();

export const FeedDeliverySchema = z.object({
  id: z.uuid(),
  consumer: z.string().describe("the feed consumer's key: outgoing-webhooks, slack, microsoft-teams, …"),
  target_id: z.string().describe('the target: an outgoing webhook id, a Slack channel id, a service id (never a URL)'),
  event_id: z.uuid(),
  incident_id: z.uuid().nullable(),
  type: z.string().describe('an incident event type, or `ping`'),
  status: z.enum(FEED_DELIVERY_STATUSES),
  attempts: z.number().int(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  created_at: z.iso.datetime(),
  next_attempt_at: z.iso.datetime().nullable().describe('null once delivered or given up'),
  delivered_at: z.iso.datetime().nullable(),
  parked_at: z.iso.datetime().nullable(),
  skipped: z.boolean().describe('parked without an attempt (the plan has no chat, the provider was disconnected)'),
});

/**
 * One view of every feed consumer's deliveries under /api (docs/integrations.md, "The delivery
 * queue"): outgoing webhooks, Slack messages and Microsoft Teams cards alike, from the one queue.
 */
export function feedDeliveryRoutes(deps: AdminDeps): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/deliveries',
      summary: `Every feed consumer's deliveries, newest first, by consumer and status (${MANAGE})`,
      operationId: 'listFeedDeliveries',
      query: FeedDeliveriesQuery,
      success: { status: 200, description: 'a page of deliveries (default 50); `meta.next_cursor` fetches the next', schema: z.array(FeedDeliverySchema) },
      errors: { ...ADMIN_ERRORS, 400: `${ADMIN_ERRORS[400]}: consumer, status, cursor or limit` },
      handler: async (ctx, { query }) => {
        const actor = await authorizedActor(deps.orm, ctx, 'integrations.manage');
        const { deliveries, next_cursor } = await listFeedDeliveries(knexOf(deps.orm), actor.organizationId, query);
        return { data: deliveries, meta: { next_cursor } };
      },
    }),
  ];
}
