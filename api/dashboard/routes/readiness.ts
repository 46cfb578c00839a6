import { z } from 'zod';
import { READINESS_KINDS } from '../../../src/domain/paging/readiness';
import { READINESS_DAYS, workspaceReadiness } from '../../../src/services/paging';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, type AdminDeps, authorizedActor } from '../admin-kit';

const ReadinessQuery = z
  .object({
    schedule_id: z.uuid('must be a UUID').optional().describe("only this schedule's gaps"),
    policy_id: z
      .uuid('must be a UUID')
      .optional()
      .describe("only this policy's gaps and those of the schedules it pages (a policy no service uses yet included)"),
  })
  .strict();

const GapSchema = z.object({
  kind: z.enum(READINESS_KINDS),
  user_id: z.uuid().optional(),
  schedule_id: z.uuid().optional(),
  policy_id: z.uuid().optional(),
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  detail: z.string(),
});

/** Readiness under /api (docs/readiness.md): what would fail a page in the next 14 days. */
export function readinessRoutes(deps: AdminDeps): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/readiness',
      summary: `What would fail a page in the next ${READINESS_DAYS} days: on-call people who cannot be reached in time, nobody on call, steps that page nobody (every member)`,
      operationId: 'getReadiness',
      query: ReadinessQuery,
      success: {
        status: 200,
        description: 'the gaps, soonest first',
        schema: z.object({ from: z.iso.datetime(), to: z.iso.datetime(), gaps: z.array(GapSchema) }),
      },
      errors: ADMIN_ERRORS,
      handler: async (ctx, { query }) => {
        const actor = await authorizedActor(deps.orm, ctx, 'workspace.read');
        const result = await workspaceReadiness(deps.orm, { organizationId: actor.organizationId, scheduleId: query.schedule_id, policyId: query.policy_id });
        return { data: result, message: result.gaps.length ? `${result.gaps.length} gap(s) in the next ${READINESS_DAYS} days` : 'ready: no gap found' };
      },
    }),
  ];
}
