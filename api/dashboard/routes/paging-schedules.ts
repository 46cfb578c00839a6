import { z } from 'zod';
import { LIMITS, RESTRICTION_TYPES, ROTATION_UNITS } from '../../../src/domain/schedule';
import {
  addScheduleOverride,
  createSchedule,
  deleteSchedule,
  getScheduleOf,
  listScheduleOverrides,
  listSchedules,
  myOnCall,
  onCallWithHandoff,
  removeScheduleOverride,
  scheduleShifts,
  SHIFTS_MAX_DAYS,
  updateSchedule,
} from '../../../src/services/paging';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, adminActorOf, auditActorOf, IdParams, type AdminDeps, authorizedActor } from '../admin-kit';

const RESTRICTION_DOC =
  'a window on the schedule’s clock in which the layer applies; outside every window the layer gives nobody and the layers below show. ' +
  'It opens at start_time (on start_day for a weekly one) and lasts duration_seconds of local wall time, so 09:00 for 8 h is 09:00–17:00 local on a clock-change day too; it may run past midnight, or past Sunday into Monday';
const RestrictionFields = {
  type: z.enum(RESTRICTION_TYPES).describe('daily: every day; weekly: once a week, on start_day'),
  start_day: z.number().int().optional().describe('ISO weekday, 1 = Monday … 7 = Sunday: required for weekly windows, refused for daily ones'),
  start_time: z.string().max(5).describe('local time "HH:mm" the window opens, 00:00 to 23:59'),
  duration_seconds: z.number().int().describe('how long it lasts: 1 to 86400 (a whole day) for daily windows, 1 to 604800 for weekly ones'),
};
/** What answers show: only today's shape. */
const Restriction = z.object(RestrictionFields).describe(RESTRICTION_DOC);
/**
 * What requests may send: today's shape, or the old daily window {from, to} (converted). Every key
 * is optional here so that src/domain/schedule names what is missing, field by field.
 */
const RestrictionBody = z
  .object({
    type: RestrictionFields.type.optional(),
    start_day: RestrictionFields.start_day,
    start_time: RestrictionFields.start_time.optional(),
    duration_seconds: RestrictionFields.duration_seconds.optional(),
    from: z
      .string()
      .max(5)
      .optional()
      .describe('deprecated, with `to`: the old daily window "HH:mm"–"HH:mm" (to <= from wraps past midnight), taken as a daily window'),
    to: z.string().max(5).optional().describe('deprecated, with `from`'),
  })
  .strict()
  .describe(`${RESTRICTION_DOC}. Give type, start_time, duration_seconds (and start_day when weekly)`);

/** A rotation layer; formats (emails, HH:mm, dates) are checked by src/domain/schedule with messages naming the field. */
const LayerBody = z
  .object({
    name: z.string().max(100).optional(),
    users: z.array(z.string().max(320)).min(1).max(LIMITS.usersPerLayer).describe('emails or user ids of members, in rotation order'),
    rotation: z.object({ unit: z.enum(ROTATION_UNITS), length: z.number().int().min(1).max(LIMITS.rotationLength) }).strict(),
    handoff_time: z.string().max(5).optional().describe('local "HH:mm" of every hand-off (default 00:00)'),
    start: z.string().max(16).describe('local date "YYYY-MM-DD" (or "YYYY-MM-DDTHH:mm") the rotation counts from'),
    restrictions: z.array(RestrictionBody).max(LIMITS.restrictions).optional().describe('when the layer applies (none: always)'),
  })
  .strict();

const Name = z.string().trim().min(1).max(255);
const TimeZone = z.string().min(1).max(64).describe('IANA time zone, e.g. Europe/Berlin');
const Layers = z.array(LayerBody).min(1).max(LIMITS.layers).describe('lowest first; the highest layer with someone on call wins');

const ScheduleBody = z.object({ name: Name, time_zone: TimeZone, layers: Layers }).strict();
const ScheduleChangesBody = z
  .object({ name: Name.optional(), time_zone: TimeZone.optional(), layers: Layers.optional() })
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'name at least one of name, time_zone, layers');

const StoredLayer = z.object({
  name: z.string(),
  users: z.array(z.uuid()),
  rotation: z.object({ unit: z.enum(ROTATION_UNITS), length: z.number().int() }),
  handoff_time: z.string(),
  start: z.string(),
  restrictions: z.array(Restriction).optional().describe('when the layer applies (absent: always)'),
});
const ScheduleSchema = z.object({ id: z.uuid(), organization_id: z.uuid(), name: z.string(), time_zone: z.string(), layers: z.array(StoredLayer) });
const Person = z.object({ id: z.uuid(), email: z.string() });
const OnCallSchema = z.object({
  at: z.iso.datetime(),
  users: z.array(Person).describe('on call at `at` (an override, else the highest layer with someone)'),
  next_handoff: z
    .object({ at: z.iso.datetime(), users: z.array(Person) })
    .nullable()
    .describe('the next change within 90 days, or null'),
});
const OverrideSchema = z.object({
  id: z.uuid(),
  schedule_id: z.uuid(),
  user_id: z.uuid(),
  email: z.string().optional(),
  from: z.iso.datetime(),
  to: z.iso.datetime(),
});

const Instant = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time with a time zone, e.g. 2026-12-01T09:00:00Z' });
const OverrideBody = z
  .object({ user_id: z.uuid('must be a UUID').optional(), email: z.email('must be an email address').max(320).optional(), from: Instant, to: Instant })
  .strict()
  .refine((b) => (b.user_id === undefined) !== (b.email === undefined), { message: 'give exactly one of user_id or email', path: ['user_id'] })
  .refine((b) => new Date(b.to).getTime() > new Date(b.from).getTime(), { message: 'must be after from', path: ['to'] });
const OnCallQuery = z.object({ at: Instant.optional().describe('default: now') }).strict();
const ShiftsQuery = z
  .object({
    from: Instant.optional().describe('default: now'),
    to: Instant.optional().describe(`default: from + 14 days; after from, at most ${SHIFTS_MAX_DAYS} days after it`),
  })
  .strict();
const NamedPerson = z.object({ id: z.uuid(), name: z.string().nullable(), email: z.string() });
const ShiftSchema = z.object({
  start: z.iso.datetime(),
  end: z.iso.datetime(),
  user_ids: z.array(z.uuid()).describe('on call for the whole shift; empty when nobody is'),
  users: z.array(NamedPerson),
});
const Interval = z.object({ start: z.iso.datetime(), end: z.iso.datetime() });
const MyOnCallSchema = z.object({
  at: z.iso.datetime(),
  on_call_now: z.boolean().describe('true when any schedule has me on call at `at`'),
  schedules: z
    .array(
      z.object({
        schedule: z.object({ id: z.uuid(), name: z.string(), time_zone: z.string() }),
        current: Interval.nullable().describe('my shift covering `at` (start at most 35 days back, end at most 90 days ahead), or null'),
        next: Interval.nullable().describe('my next shift after `at` within 90 days, or null'),
      }),
    )
    .describe('the schedules that have me on call now or within 90 days, by name'),
});
const DEFAULT_SHIFT_DAYS = 14;
const OverrideParams = z.object({ id: z.uuid('must be a UUID'), override_id: z.uuid('must be a UUID') });

const MANAGE = 'Billing Owner, Account Admin (escalation.manage; a Team Manager may not: schedules belong to the workspace)';
const NOT_FOUND = { 404: 'no such schedule (or override) in this workspace' };
const ERRORS = {
  ...ADMIN_ERRORS,
  400: 'invalid input (a layer user who is not a member, an unknown time zone, …): the field is named in `error`',
  ...NOT_FOUND,
};

/** On-call schedules and their overrides under /api. */
export function scheduleRoutes(deps: AdminDeps): RouteSpec[] {
  const audit = (actor: ReturnType<typeof adminActorOf>) => ({ actor: auditActorOf(actor) });
  const reader = async (ctx: Parameters<RouteSpec['handler']>[0]) => {
    const actor = await authorizedActor(deps.orm, ctx, 'workspace.read');
    return actor;
  };
  const manager = async (ctx: Parameters<RouteSpec['handler']>[0]) => {
    const actor = await authorizedActor(deps.orm, ctx, 'escalation.manage');
    return actor;
  };
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/schedules',
      summary: 'List the workspace’s on-call schedules (every member)',
      operationId: 'listSchedules',
      success: { status: 200, description: 'the schedules by name', schema: z.array(ScheduleSchema) },
      errors: ADMIN_ERRORS,
      handler: async (ctx) => {
        const schedules = await listSchedules(deps.orm, (await reader(ctx)).organizationId);
        return { data: schedules, message: `${schedules.length} schedule(s)` };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/schedules',
      summary: `Create an on-call schedule (${MANAGE})`,
      operationId: 'createSchedule',
      body: ScheduleBody,
      success: { status: 201, description: 'the schedule; layer users are stored as user ids', schema: ScheduleSchema },
      errors: ERRORS,
      handler: async (ctx, { body }) => {
        const actor = await manager(ctx);
        const input = { organizationId: actor.organizationId, name: body.name, timeZone: body.time_zone, layers: body.layers };
        return { data: await createSchedule(deps.orm, input, audit(actor)), message: 'schedule created' };
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/schedules/{id}',
      summary: 'Read one schedule (every member)',
      operationId: 'getSchedule',
      params: IdParams,
      success: { status: 200, description: 'the schedule', schema: ScheduleSchema },
      errors: { ...ADMIN_ERRORS, ...NOT_FOUND },
      handler: async (ctx, { params }) => ({ data: await getScheduleOf(deps.orm, { id: params.id, organizationId: (await reader(ctx)).organizationId }) }),
    }),
    defineRoute({
      method: 'put',
      access: 'write',
      path: '/schedules/{id}',
      summary: `Change a schedule: the fields given replace theirs, the rest stay (${MANAGE})`,
      operationId: 'updateSchedule',
      params: IdParams,
      body: ScheduleChangesBody,
      success: { status: 200, description: 'the schedule as it now is', schema: ScheduleSchema },
      errors: ERRORS,
      handler: async (ctx, { params, body }) => {
        const actor = await manager(ctx);
        const changes = { name: body.name, timeZone: body.time_zone, layers: body.layers };
        return {
          data: await updateSchedule(deps.orm, { id: params.id, organizationId: actor.organizationId, changes }, audit(actor)),
          message: 'schedule changed',
        };
      },
    }),
    defineRoute({
      method: 'delete',
      access: 'write',
      path: '/schedules/{id}',
      summary: `Delete a schedule no escalation policy targets, with its overrides (${MANAGE})`,
      operationId: 'deleteSchedule',
      params: IdParams,
      success: { status: 200, description: 'deleted', schema: z.object({ id: z.uuid(), deleted: z.literal(true) }) },
      errors: { ...ADMIN_ERRORS, ...NOT_FOUND, 409: 'schedule_in_use: an escalation policy targets it (the policies are named)' },
      handler: async (ctx, { params }) => {
        const actor = await manager(ctx);
        return { data: await deleteSchedule(deps.orm, { id: params.id, organizationId: actor.organizationId }, audit(actor)), message: 'schedule deleted' };
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/schedules/{id}/on-call',
      summary: 'Who is on call now, or at `at`, and the next hand-off (every member)',
      operationId: 'getOnCall',
      params: IdParams,
      query: OnCallQuery,
      success: { status: 200, description: 'who is on call', schema: OnCallSchema },
      errors: { ...ADMIN_ERRORS, ...NOT_FOUND },
      handler: async (ctx, { params, query }) => {
        const actor = await reader(ctx);
        return {
          data: await onCallWithHandoff(deps.orm, {
            scheduleId: params.id,
            organizationId: actor.organizationId,
            at: query.at ? new Date(query.at) : new Date(),
          }),
        };
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/schedules/{id}/shifts',
      summary: `Who is on call over [from, to), overrides applied: a calendar of at most ${SHIFTS_MAX_DAYS} days (every member)`,
      operationId: 'listScheduleShifts',
      params: IdParams,
      query: ShiftsQuery,
      success: { status: 200, description: 'consecutive shifts covering [from, to), each with who is on call', schema: z.array(ShiftSchema) },
      errors: { ...ADMIN_ERRORS, 400: `to not after from, or more than ${SHIFTS_MAX_DAYS} days after it (\`to: …\`)`, ...NOT_FOUND },
      handler: async (ctx, { params, query }) => {
        const actor = await reader(ctx);
        const from = query.from ? new Date(query.from) : new Date();
        const to = query.to ? new Date(query.to) : new Date(from.getTime() + DEFAULT_SHIFT_DAYS * 86_400_000);
        const shifts = await scheduleShifts(deps.orm, { scheduleId: params.id, organizationId: actor.organizationId, from, to });
        return { data: shifts, message: `${shifts.length} shift(s)` };
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/on-call/me',
      summary: 'Am I on call: in which schedules now, until when, and my next shift in each (every member)',
      operationId: 'getMyOnCall',
      success: { status: 200, description: 'my current and next shift per schedule', schema: MyOnCallSchema },
      errors: ADMIN_ERRORS,
      handler: async (ctx) => {
        const actor = await reader(ctx);
        return { data: await myOnCall(deps.orm, { organizationId: actor.organizationId, userId: actor.userId, at: new Date() }) };
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/schedules/{id}/overrides',
      summary: 'The schedule’s current and future overrides, soonest first (every member)',
      operationId: 'listScheduleOverrides',
      params: IdParams,
      success: { status: 200, description: 'overrides that have not ended', schema: z.array(OverrideSchema) },
      errors: { ...ADMIN_ERRORS, ...NOT_FOUND },
      handler: async (ctx, { params }) => {
        const overrides = await listScheduleOverrides(deps.orm, { scheduleId: params.id, organizationId: (await reader(ctx)).organizationId });
        return { data: overrides, message: `${overrides.length} override(s)` };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/schedules/{id}/overrides',
      summary: `Put a member on call for [from, to) above every layer (${MANAGE})`,
      operationId: 'createScheduleOverride',
      params: IdParams,
      body: OverrideBody,
      success: { status: 201, description: 'the override', schema: OverrideSchema },
      errors: { ...ERRORS, 400: 'invalid input (to not after from, someone who is not a member, …): the field is named in `error`' },
      handler: async (ctx, { params, body }) => {
        const actor = await manager(ctx);
        const input = {
          scheduleId: params.id,
          organizationId: actor.organizationId,
          userId: body.user_id,
          email: body.email,
          from: new Date(body.from),
          to: new Date(body.to),
        };
        return { data: await addScheduleOverride(deps.orm, input, audit(actor)), message: 'override added' };
      },
    }),
    defineRoute({
      method: 'delete',
      access: 'write',
      path: '/schedules/{id}/overrides/{override_id}',
      summary: `Remove an override (${MANAGE})`,
      operationId: 'deleteScheduleOverride',
      params: OverrideParams,
      success: { status: 200, description: 'removed', schema: z.object({ id: z.uuid(), deleted: z.literal(true) }) },
      errors: { ...ADMIN_ERRORS, ...NOT_FOUND },
      handler: async (ctx, { params }) => {
        const actor = await manager(ctx);
        return {
          data: await removeScheduleOverride(
            deps.orm,
            { scheduleId: params.id, overrideId: params.override_id, organizationId: actor.organizationId },
            audit(actor),
          ),
          message: 'override removed',
        };
      },
    }),
  ];
}
