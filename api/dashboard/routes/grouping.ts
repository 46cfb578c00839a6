import { z } from 'zod';
import { groupingRulesSchema, type GroupingRule } from '../../../src/domain/grouping/rules';
import { getGroupingRules, putGroupingRules } from '../../../src/services/grouping/rules';
import { GROUPING_REPLAY_BOUNDS, simulateGrouping } from '../../../src/services/grouping/simulate';
import { WHAT_IF_SLOTS, WhatIfBusy } from '../../../src/services/paging/what-if-slots';
import { getServiceDetail } from '../../../src/services/workspace/catalog';
import { HttpError } from '../../http/customer-errors';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, adminActorOf, auditActorOf, authorize, authorizedActor, IdParams, type AdminDeps } from '../admin-kit';

const RulesBody = z.object({ rules: groupingRulesSchema }).strict();
const SimulateBody = z
  .object({
    rules: groupingRulesSchema,
    from: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }),
    to: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }),
  })
  .strict()
  .superRefine((b, ctx) => {
    const span = Date.parse(b.to) - Date.parse(b.from);
    if (span <= 0) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be after from' });
    else if (span > GROUPING_REPLAY_BOUNDS.maxRangeDays * 86_400_000) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: `must be at most ${GROUPING_REPLAY_BOUNDS.maxRangeDays} days after from` });
    }
  });

const RuleSchema = z.object({
  name: z.string(),
  match: z.array(z.object({ field: z.string(), op: z.enum(['equals', 'contains', 'exists', 'matches']), value: z.string().optional() })),
  group_by: z.array(z.string()),
  window_seconds: z.number().int(),
  page_after: z.object({ count: z.number().int(), within_seconds: z.number().int() }).nullable(),
});
const RulesSchema = z.object({ service_id: z.uuid(), rules: z.array(RuleSchema), updated_at: z.iso.datetime().nullable() });
const ReplaySchema = z.object({
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  alerts_replayed: z.number().int(),
  truncated: z.boolean().describe(`more than ${GROUPING_REPLAY_BOUNDS.maxAlerts} alerts: the oldest were replayed`),
  pages_before: z.number().int(),
  pages_after: z.number().int(),
  incidents_before: z.number().int(),
  incidents_after: z.number().int(),
  groups: z.array(z.object({ key: z.string(), rule: z.string(), alerts: z.number().int(), first_at: z.iso.datetime(), last_at: z.iso.datetime() })),
  groups_truncated: z.boolean(),
  split_lost: z.array(z.object({ incident_id: z.uuid(), number: z.number().int(), title: z.string(), folded_into: z.string() })),
  split_lost_truncated: z.boolean(),
});

const MANAGE = 'Billing Owner, Account Admin, or a Team Manager in the owning team';
const NOT_FOUND = 'no such service in this workspace';

/** Grouping rules of a service and their replay (docs/grouping.md). */
export function groupingRoutes(deps: AdminDeps): RouteSpec[] {
  const normalised = (rules: z.infer<typeof groupingRulesSchema>): GroupingRule[] => rules.map((r) => ({ ...r, page_after: r.page_after ?? null }));
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/services/{id}/grouping',
      summary: 'Read a service’s grouping rules, in order (any member)',
      operationId: 'getServiceGrouping',
      params: IdParams,
      success: { status: 200, description: 'the rules', schema: RulesSchema },
      errors: { ...ADMIN_ERRORS, 404: NOT_FOUND },
      handler: async (ctx, { params }) => {
        const actor = await authorizedActor(deps.orm, ctx, 'workspace.read');
        const service = await getServiceDetail(deps.orm, actor.organizationId, params.id);
        return { data: await getGroupingRules(deps.orm, service.id), message: 'ok' };
      },
    }),
    defineRoute({
      method: 'put',
      access: 'write',
      path: '/services/{id}/grouping',
      summary: `Replace a service’s grouping rules (${MANAGE})`,
      operationId: 'putServiceGrouping',
      params: IdParams,
      body: RulesBody,
      success: { status: 200, description: 'the rules as stored', schema: RulesSchema },
      errors: { ...ADMIN_ERRORS, 400: `${ADMIN_ERRORS[400]}; names the field (a non-linear pattern is refused)`, 404: NOT_FOUND },
      handler: async (ctx, { params, body }) => {
        const actor = adminActorOf(ctx);
        const service = await getServiceDetail(deps.orm, actor.organizationId, params.id);
        await authorize(deps.orm, actor, 'services.manage', service.owning_team_id);
        const input = { organizationId: actor.organizationId, serviceId: service.id, rules: normalised(body.rules) };
        const stored = await putGroupingRules(deps.orm, input, auditActorOf(actor));
        return { data: stored, message: 'grouping rules saved' };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'read',
      path: '/services/{id}/grouping/simulate',
      summary: 'Replay the service’s alerts of a range (≤ 90 days) under draft rules (any member; nothing is saved)',
      operationId: 'simulateServiceGrouping',
      params: IdParams,
      body: SimulateBody,
      success: { status: 200, description: 'pages and incidents before and after, the groups, and pages a fold would lose', schema: ReplaySchema },
      errors: {
        ...ADMIN_ERRORS,
        404: NOT_FOUND,
        429: `rate_limited: this workspace already runs ${WHAT_IF_SLOTS.runsPerWorkspace} simulations (Retry-After)`,
      },
      handler: async (ctx, { params, body }) => {
        const actor = await authorizedActor(deps.orm, ctx, 'workspace.read');
        const service = await getServiceDetail(deps.orm, actor.organizationId, params.id);
        try {
          const answer = await simulateGrouping(deps.orm, {
            organizationId: actor.organizationId,
            serviceId: service.id,
            rules: normalised(body.rules),
            from: new Date(body.from),
            to: new Date(body.to),
          });
          return { data: answer, message: `${answer.alerts_replayed} alerts replayed: ${answer.pages_before} pages before, ${answer.pages_after} after` };
        } catch (err) {
          if (err instanceof WhatIfBusy) throw new HttpError(429, err.message, 'rate_limited', { 'Retry-After': String(err.retryAfterSeconds) });
          throw err;
        }
      },
    }),
  ];
}
