import { z } from 'zod';
import {
  CRON_PATTERN,
  DEFAULT_DRILL_ACK_WINDOW_SECONDS,
  DRILL_CHANNELS,
  DRILL_RESULT_STATUSES,
  DRILL_TARGET_MIN_GAP_SECONDS,
  DRILL_TARGET_TYPES,
  DRILL_WORKSPACE_MAX_PER_HOUR,
  WEEKDAYS,
  weeklyCron,
  type DrillTarget,
} from '../../../src/domain/drills';
import { PLAN_LIMITS, PLANS } from '../../../src/domain/plans';
import { normaliseTimeZone } from '../../../src/domain/user-profile';
import {
  createDrillSchedule,
  deleteDrillSchedule,
  DrillRateLimited,
  drillPeopleIds,
  getDrill,
  getDrillSchedule,
  listDrills,
  listDrillSchedules,
  startDrill,
} from '../../../src/services/drills';
import { DomainError } from '../../../src/services/errors';
import { TEST_SEND_REFUSAL } from '../../../src/services/throttles';
import { HttpError } from '../../http/customer-errors';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import {
  ADMIN_ERRORS,
  adminActorOf,
  auditActorOf,
  authorize,
  authorizedActor,
  IdParams,
  pageMeta,
  PageQuery,
  type AdminActor,
  type AdminDeps,
} from '../admin-kit';

const Target = z
  .object({
    type: z.enum(DRILL_TARGET_TYPES),
    id: z.uuid('must be a UUID'),
  })
  .strict()
  .describe('who is paged: a member, a team’s members, or who is on call on a schedule now');
const Channels = z
  .array(z.enum(DRILL_CHANNELS))
  .min(1, 'must name at least one channel')
  .max(DRILL_CHANNELS.length)
  .refine((c) => new Set(c).size === c.length, 'must not repeat a channel')
  .describe('only these channels, on each of the person’s enabled, verified contact methods; absent: the channels their notification rules page');

const DrillBody = z.object({ target: Target, channels: Channels.optional() }).strict();

const TimeZone = z
  .string()
  .min(1)
  .max(64)
  .refine((t) => normaliseTimeZone(t) !== undefined, 'must be an IANA time zone, e.g. Europe/Berlin')
  .describe('IANA time zone the cron or weekday and time are read in');
const DrillScheduleBody = z
  .object({
    target: Target,
    channels: Channels.optional(),
    cron: z.string().max(200).regex(CRON_PATTERN, 'must be five cron fields, the minute a single number (at most hourly)').optional(),
    weekday: z.enum(WEEKDAYS).optional(),
    time: z
      .string()
      .regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM, e.g. 10:00')
      .optional(),
    time_zone: TimeZone.default('UTC'),
  })
  .strict()
  .superRefine((b, ctx) => {
    if (b.cron !== undefined && (b.weekday !== undefined || b.time !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['cron'], message: 'give either cron or weekday and time, not both' });
    } else if (b.cron === undefined && (b.weekday === undefined || b.time === undefined)) {
      ctx.addIssue({ code: 'custom', path: [b.weekday === undefined ? 'weekday' : 'time'], message: 'is required unless cron is given' });
    }
  });

const ResultSchema = z.object({
  user_id: z.uuid(),
  user_name: z.string(),
  channel: z.string().nullable(),
  contact_method_id: z.uuid().nullable(),
  status: z.enum(DRILL_RESULT_STATUSES),
  latency_ms: z.number().int().nullable().describe('from the drill’s start to the provider accepting the page'),
  acknowledged_at: z.iso.datetime().nullable(),
  error: z.string().nullable(),
});
const DrillSchema = z.object({
  id: z.uuid(),
  target: z.object({ type: z.enum(DRILL_TARGET_TYPES), id: z.uuid() }),
  channels: z.array(z.string()).nullable(),
  drill_schedule_id: z.uuid().nullable(),
  created_at: z.iso.datetime(),
  finished_at: z.iso.datetime().nullable().describe('when the acknowledgement window closed'),
  results: z.array(ResultSchema),
});
const DrillScheduleSchema = z.object({
  id: z.uuid(),
  target: z.object({ type: z.enum(DRILL_TARGET_TYPES), id: z.uuid() }),
  channels: z.array(z.string()).nullable(),
  cron: z.string(),
  time_zone: z.string(),
  created_at: z.iso.datetime(),
});

const RECURRING_DRILLS = PLANS.map((p) => `${p} ${PLAN_LIMITS[p].recurringDrills}`).join(', ');
const WHO = 'Billing Owner, Account Admin, a Team Manager for a team they are in; any member for themselves';
const DRILL_ERRORS = {
  ...ADMIN_ERRORS,
  403: `${ADMIN_ERRORS[403]}: drills need escalation.manage (${WHO})`,
  404: 'target.id: no such user, team or schedule in this workspace',
} as const;

/**
 * Paging drills under /api (docs/drills.md): a clearly marked test page through the real
 * channels, no incident; history; recurring drills on a Temporal Schedule.
 */
export function drillRoutes(deps: AdminDeps): RouteSpec[] {
  const temporal = () => {
    if (!deps.temporal || !deps.taskQueue) throw new DomainError('unavailable', 'drills need Temporal, which this process has no client for');
    return { client: deps.temporal, taskQueue: deps.taskQueue };
  };
  /** A member may drill themselves; anyone else is escalation.manage (a team: through that team). Unknown targets are 404 first. */
  const mayDrill = async (actor: AdminActor, target: DrillTarget) => {
    await drillPeopleIds(deps.orm, actor.organizationId, target, new Date());
    if (target.type === 'user' && target.id === actor.userId) return authorize(deps.orm, actor, 'workspace.read');
    await authorize(deps.orm, actor, 'escalation.manage', target.type === 'team' ? target.id : null);
  };
  const ackWindowSeconds = deps.drillAckWindowSeconds ?? DEFAULT_DRILL_ACK_WINDOW_SECONDS;
  return [
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/drills',
      summary: `Send a paging drill: a test page to each person, no incident (${WHO}); a target at most once a minute`,
      operationId: 'startDrill',
      body: DrillBody,
      success: { status: 201, description: 'the drill, its results pending until each provider answers', schema: DrillSchema },
      errors: {
        ...DRILL_ERRORS,
        429: `rate_limited: the target was drilled in the last ${DRILL_TARGET_MIN_GAP_SECONDS} s, or the workspace started ${DRILL_WORKSPACE_MAX_PER_HOUR} drills this hour, or the test-send budget is spent: ${TEST_SEND_REFUSAL}`,
      },
      handler: async (ctx, { body }) => {
        const actor = adminActorOf(ctx);
        await mayDrill(actor, body.target);
        // A one-off drill is a test send (the budget every kind shares); the drill's own limits come after.
        await deps.throttles.testSend.take(actor.organizationId, actor.userId);
        try {
          const data = await startDrill(deps.orm, temporal(), {
            organizationId: actor.organizationId,
            target: body.target,
            channels: body.channels,
            createdBy: actor.userId,
            ackWindowSeconds,
            audit: auditActorOf(actor),
          });
          return { data, message: data.results.length ? `drill sent to ${new Set(data.results.map((r) => r.user_id)).size} person(s)` : 'nobody to page' };
        } catch (err) {
          // Refused before anything was written (the drill's own limits, too many people, no Temporal
          // client): nothing was sent, so the test-send point goes back.
          if (err instanceof DrillRateLimited || err instanceof DomainError) await deps.throttles.testSend.giveBack(actor.organizationId, actor.userId);
          if (err instanceof DrillRateLimited) throw new HttpError(429, err.message, 'rate_limited', { 'Retry-After': String(err.retryAfterSeconds) });
          throw err;
        }
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/drills',
      summary: 'Drill history, newest first (any member)',
      operationId: 'listDrills',
      query: PageQuery,
      success: { status: 200, description: 'a page of drills with their results; meta.total counts them all', schema: z.array(DrillSchema) },
      errors: ADMIN_ERRORS,
      handler: async (ctx, { query }) => {
        const actor = await authorizedActor(deps.orm, ctx, 'workspace.read');
        const { drills, total } = await listDrills(deps.orm, actor.organizationId, query);
        return { data: drills, meta: pageMeta(total, query), message: `${total} drill(s)` };
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/drills/{id}',
      summary: 'One drill: per person and channel, delivered or not, latency, acknowledged or not (any member)',
      operationId: 'getDrill',
      params: IdParams,
      success: { status: 200, description: 'the drill', schema: DrillSchema },
      errors: { ...ADMIN_ERRORS, 404: 'no such drill in this workspace' },
      handler: async (ctx, { params }) => {
        const actor = await authorizedActor(deps.orm, ctx, 'workspace.read');
        return { data: await getDrill(deps.orm, actor.organizationId, params.id) };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/drill-schedules',
      summary: `Schedule a recurring drill on a Temporal Schedule, e.g. every Monday 10:00 for the week’s on-call (${WHO})`,
      operationId: 'createDrillSchedule',
      body: DrillScheduleBody,
      success: { status: 201, description: 'the recurring drill', schema: DrillScheduleSchema },
      errors: { ...DRILL_ERRORS, 403: `${DRILL_ERRORS[403]}; plan_limit_reached: the plan's recurring drills are all taken (${RECURRING_DRILLS})` },
      handler: async (ctx, { body }) => {
        const actor = adminActorOf(ctx);
        await mayDrill(actor, body.target);
        const data = await createDrillSchedule(deps.orm, temporal(), {
          organizationId: actor.organizationId,
          target: body.target,
          channels: body.channels,
          cron: body.cron ?? weeklyCron(body.weekday!, body.time!),
          timeZone: normaliseTimeZone(body.time_zone)!,
          ackWindowSeconds,
          audit: { kind: 'user', userId: actor.userId, email: actor.email, ip: actor.ip },
        });
        return { data, message: `recurring drill scheduled (${data.cron}, ${data.time_zone})` };
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/drill-schedules',
      summary: 'Recurring drills (any member)',
      operationId: 'listDrillSchedules',
      success: { status: 200, description: 'the workspace’s recurring drills, oldest first', schema: z.array(DrillScheduleSchema) },
      errors: ADMIN_ERRORS,
      handler: async (ctx) => {
        const actor = await authorizedActor(deps.orm, ctx, 'workspace.read');
        return { data: await listDrillSchedules(deps.orm, actor.organizationId) };
      },
    }),
    defineRoute({
      method: 'delete',
      access: 'write',
      path: '/drill-schedules/{id}',
      summary: `Delete a recurring drill and its Temporal Schedule (${WHO})`,
      operationId: 'deleteDrillSchedule',
      params: IdParams,
      success: { status: 200, description: 'deleted', schema: z.object({ id: z.uuid(), deleted: z.literal(true) }) },
      errors: { ...DRILL_ERRORS, 404: 'no such recurring drill in this workspace' },
      handler: async (ctx, { params }) => {
        const actor = adminActorOf(ctx);
        const schedule = await getDrillSchedule(deps.orm, actor.organizationId, params.id);
        await mayDrill(actor, schedule.target).catch(async (err) => {
          // The target is gone: whoever may manage escalation may still delete its drill.
          if (err instanceof DomainError && err.kind === 'not_found') return authorize(deps.orm, actor, 'escalation.manage');
          throw err;
        });
        await deleteDrillSchedule(deps.orm, temporal().client, { organizationId: actor.organizationId, id: params.id, audit: auditActorOf(actor) });
        return { data: { id: params.id, deleted: true as const }, message: 'recurring drill deleted' };
      },
    }),
  ];
}
