import { z } from 'zod';
import { ackTimeoutSecondsField, nameField, repeatField, stepsField, TARGET_TYPES } from '../../../src/domain/paging/config';
import {
  createEscalationPolicy,
  deleteEscalationPolicy,
  getEscalationPolicy,
  listEscalationPolicies,
  simulatePolicy,
  updateEscalationPolicy,
  WHAT_IF_LIMITS,
  WHAT_IF_SLOTS,
  WhatIfBusy,
  type Simulation,
} from '../../../src/services/paging';
import { HttpError } from '../../http/customer-errors';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, auditActorOf, IdParams, type AdminDeps, authorizedActor } from '../admin-kit';

const PolicySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  steps: z.array(z.object({ delay_seconds: z.number().int(), targets: z.array(z.object({ type: z.enum(TARGET_TYPES), id: z.uuid() })) })),
  repeat: z.number().int(),
  ack_timeout_seconds: z.number().int().nullable(),
});
const ListedPolicySchema = PolicySchema.extend({ service_ids: z.array(z.uuid()).describe('services that page with this policy') });

const PolicyBody = z
  .object({
    name: nameField,
    steps: stepsField.describe('in order; each step pages its targets (users, schedules, teams of this workspace), then waits delay_seconds'),
    repeat: repeatField.default(0).describe('how many more times the whole list runs'),
    ack_timeout_seconds: ackTimeoutSecondsField.nullish().describe('return an acknowledged incident to TRIGGERED after this long'),
  })
  .strict();

const PolicyChangesBody = z
  .object({
    name: nameField.optional(),
    steps: stepsField.optional(),
    repeat: repeatField.optional(),
    ack_timeout_seconds: ackTimeoutSecondsField.nullable().optional(),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'name at least one of name, steps, repeat, ack_timeout_seconds');

const SimulateBody = z
  .object({
    policy: PolicyBody.extend({ name: nameField.optional() })
      .optional()
      .describe('a draft policy (the body of a create; not saved): replayed instead of a saved one'),
    policy_id: z.uuid('must be a UUID').optional().describe('a saved policy of this workspace'),
    service_id: z.uuid('must be a UUID').describe('whose incidents are replayed'),
    from: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 instant' }).describe('incidents opened from this instant'),
    to: z.iso
      .datetime({ offset: true, error: 'must be an ISO 8601 instant' })
      .describe(`until this one (at most ${WHAT_IF_LIMITS.maxRangeDays} days after from)`),
    cursor: z
      .string()
      .max(256, 'must be the next_cursor of an earlier answer')
      .regex(/^[\w-]+$/, 'must be the next_cursor of an earlier answer')
      .optional()
      .describe('the next_cursor of an earlier answer to this same request: its next part'),
  })
  .strict()
  .refine((b) => (b.policy === undefined) !== (b.policy_id === undefined), { message: 'give exactly one of policy and policy_id', path: ['policy'] });

const SimulatedPage = z.object({ user_id: z.uuid().nullable(), name: z.string().nullable(), channel: z.string(), at: z.iso.datetime() });
const SimulationSchema = z.object({
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  policy: z.object({ id: z.uuid().nullable(), name: z.string() }),
  truncated: z.boolean().describe('not everything in the range was replayed (truncated_reason says why)'),
  truncated_reason: z
    .enum(['incidents', 'pages'])
    .nullable()
    .describe(
      `incidents: more than ${WHAT_IF_LIMITS.maxIncidents} in the range, the oldest were replayed; pages: the replay stopped at ${WHAT_IF_LIMITS.maxPages} simulated pages`,
    ),
  incident_count: z.number().int().describe('incidents replayed, over every part of the answer'),
  differing_count: z.number().int().describe('of them, those that would page differently'),
  incidents: z.array(
    z.object({
      incident_id: z.uuid(),
      number: z.number().int(),
      title: z.string(),
      opened_at: z.iso.datetime(),
      ended_at: z.iso.datetime().nullable().describe('when its first TRIGGERED spell ended (acknowledged, resolved or closed); null: still TRIGGERED'),
      would_page: z.array(SimulatedPage),
      actually_paged: z.array(SimulatedPage).describe('the pages sent during that spell'),
      differs: z.boolean().describe('who, how or at which step differ'),
    }),
  ),
  totals: z.array(
    z.object({ user_id: z.uuid(), name: z.string(), would_pages: z.number().int(), night_pages: z.number().int(), actual_pages: z.number().int() }),
  ),
  totals_truncated: z.boolean().describe('the least-paged people were left out of totals to keep the answer small'),
  next_cursor: z
    .string()
    .nullable()
    .describe('the answer is split (at most 5 MiB each, those that differ first): send the same request with this cursor for the next part'),
});

const MANAGE = 'Billing Owner, Account Admin (escalation.manage; a Team Manager may not: policies belong to the workspace)';
const ERRORS = {
  ...ADMIN_ERRORS,
  400: 'invalid input, or a target not of this workspace (`unknown_target`): the field is named in `error`',
  404: 'no such policy in this workspace',
};

/** The dashboard's success envelope of a simulation (`{success, data, message}`), its incidents' texts written as they are. */
function simulationEnvelope({ answer, incidentTexts }: Simulation, message: string): string {
  return `{"success":true,"data":${JSON.stringify(answer).slice(0, -1)},"incidents":[${incidentTexts.join(',')}]},"message":${JSON.stringify(message)}}`;
}

/** Escalation policies under /api: who is paged, in what order, for a service's incidents. */
export function policyRoutes(deps: AdminDeps): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/escalation-policies',
      summary: 'List the workspace’s escalation policies (every member)',
      operationId: 'listEscalationPolicies',
      success: { status: 200, description: 'the policies by name, each with the services using it', schema: z.array(ListedPolicySchema) },
      errors: ADMIN_ERRORS,
      handler: async (ctx) => {
        const actor = await authorizedActor(deps.orm, ctx, 'workspace.read');
        const policies = await listEscalationPolicies(deps.orm, actor.organizationId);
        return { data: policies, message: `${policies.length} escalation polic${policies.length === 1 ? 'y' : 'ies'}` };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/escalation-policies',
      summary: `Create an escalation policy (${MANAGE})`,
      operationId: 'createEscalationPolicy',
      body: PolicyBody,
      success: { status: 201, description: 'the policy', schema: PolicySchema },
      errors: ERRORS,
      handler: async (ctx, { body }) => {
        const actor = await authorizedActor(deps.orm, ctx, 'escalation.manage');
        const input = {
          organizationId: actor.organizationId,
          name: body.name,
          steps: body.steps,
          repeat: body.repeat,
          ackTimeoutSeconds: body.ack_timeout_seconds,
        };
        return { data: await createEscalationPolicy(deps.orm, input, { actor: auditActorOf(actor) }), message: 'escalation policy created' };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'read',
      path: '/escalation-policies/simulate',
      summary: 'What-if: replay a service’s incidents against a draft or saved policy (every member; nothing is saved or sent)',
      operationId: 'simulateEscalationPolicy',
      body: SimulateBody,
      success: { status: 200, description: 'per incident who would have been paged, beside who was; totals per person', schema: SimulationSchema },
      errors: {
        ...ERRORS,
        404: 'no such service or policy in this workspace',
        429: `rate_limited: this workspace already runs ${WHAT_IF_SLOTS.runsPerWorkspace} simulations (Retry-After)`,
      },
      handler: async (ctx, { body }) => {
        const actor = await authorizedActor(deps.orm, ctx, 'workspace.read');
        const policy = body.policy
          ? { name: body.policy.name, steps: body.policy.steps, repeat: body.policy.repeat, ackTimeoutSeconds: body.policy.ack_timeout_seconds }
          : { id: body.policy_id! };
        try {
          const result = await simulatePolicy(deps.orm, {
            organizationId: actor.organizationId,
            serviceId: body.service_id,
            policy,
            from: new Date(body.from),
            to: new Date(body.to),
            cursor: body.cursor,
          });
          const message = `${result.answer.incident_count} incidents replayed, ${result.answer.differing_count} would page differently`;
          // Written from the incidents' texts: serializing up to 5 MiB at once would hold the event loop.
          ctx.status = 200;
          ctx.type = 'application/json';
          ctx.body = simulationEnvelope(result, message);
          return { data: null, streamed: true as const };
        } catch (err) {
          if (err instanceof WhatIfBusy) throw new HttpError(429, err.message, 'rate_limited', { 'Retry-After': String(err.retryAfterSeconds) });
          throw err;
        }
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/escalation-policies/{id}',
      summary: 'Read one escalation policy (every member)',
      operationId: 'getEscalationPolicy',
      params: IdParams,
      success: { status: 200, description: 'the policy', schema: PolicySchema },
      errors: { ...ADMIN_ERRORS, 404: ERRORS[404] },
      handler: async (ctx, { params }) => {
        const actor = await authorizedActor(deps.orm, ctx, 'workspace.read');
        const { organization_id: _org, ...policy } = await getEscalationPolicy(deps.orm, params.id, actor.organizationId);
        return { data: policy };
      },
    }),
    defineRoute({
      method: 'put',
      access: 'write',
      path: '/escalation-policies/{id}',
      summary: `Change an escalation policy: the fields given replace theirs, the rest stay (${MANAGE})`,
      operationId: 'updateEscalationPolicy',
      params: IdParams,
      body: PolicyChangesBody,
      success: { status: 200, description: 'the policy as it now is', schema: PolicySchema },
      errors: ERRORS,
      handler: async (ctx, { params, body }) => {
        const actor = await authorizedActor(deps.orm, ctx, 'escalation.manage');
        const changes = { name: body.name, steps: body.steps, repeat: body.repeat, ackTimeoutSeconds: body.ack_timeout_seconds };
        return {
          data: await updateEscalationPolicy(deps.orm, { id: params.id, organizationId: actor.organizationId, changes }, { actor: auditActorOf(actor) }),
          message: 'escalation policy changed',
        };
      },
    }),
    defineRoute({
      method: 'delete',
      access: 'write',
      path: '/escalation-policies/{id}',
      summary: `Delete an escalation policy no service uses (${MANAGE})`,
      operationId: 'deleteEscalationPolicy',
      params: IdParams,
      success: { status: 200, description: 'deleted', schema: z.object({ id: z.uuid(), deleted: z.literal(true) }) },
      errors: { ...ADMIN_ERRORS, 404: ERRORS[404], 409: 'policy_in_use: a service pages with it (the services are named); give them another policy first' },
      handler: async (ctx, { params }) => {
        const actor = await authorizedActor(deps.orm, ctx, 'escalation.manage');
        return {
          data: await deleteEscalationPolicy(deps.orm, { id: params.id, organizationId: actor.organizationId }, { actor: auditActorOf(actor) }),
          message: 'escalation policy deleted',
        };
      },
    }),
  ];
}
