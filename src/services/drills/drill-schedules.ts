import { randomUUID } from 'node:crypto';
import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import type { Client, ScheduleOptions } from '@temporalio/client';
import { drillScheduleTemporalId, type DrillWorkflowInput } from '../../contracts/workflows';
import type { DrillChannel, DrillTarget } from '../../domain/drills';
import { PLAN_LIMITS, type Plan } from '../../domain/plans';
import { knexOf } from '../../db/knex';
import { iso } from '../../db/timestamps';
import { recordAudit, type AuditActor } from '../audit';
import { forbidden, notFound } from '../errors';
import { drillPeopleIds } from './targets';

/** Recurring drills (docs/drills.md): a `drill_schedules` row and its Temporal Schedule, made and removed together. */

export interface DrillScheduleJson {
  id: string;
  target: DrillTarget;
  channels: string[] | null;
  cron: string;
  time_zone: string;
  created_at: string;
}

const scheduleJson = (r: Record<string, unknown>): DrillScheduleJson => ({
  id: r.id as string,
  target: { type: r.target_type as DrillTarget['type'], id: r.target_id as string },
  channels: (r.channels as string[] | null) ?? null,
  cron: r.cron as string,
  time_zone: r.time_zone as string,
  created_at: iso(r.created_at as Date),
});

/** The Temporal Schedule of a recurring drill: each firing starts `drillWorkflow`, which reads who is on call then. */
function temporalSchedule(drillScheduleId: string, opts: { cron: string; timeZone: string; taskQueue: string }) {
  const args: [DrillWorkflowInput] = [{ drillScheduleId }];
  return {
    spec: { cronExpressions: [opts.cron], timezone: opts.timeZone },
    action: {
      type: 'startWorkflow' as const,
      workflowType: 'drillWorkflow',
      workflowId: drillScheduleTemporalId(drillScheduleId),
      taskQueue: opts.taskQueue,
      args,
    },
    // A missed firing (Temporal down) is caught up within an hour, not later: a stale drill pages the wrong week.
    policies: { overlap: 'ALLOW_ALL' as const, catchupWindow: '1 hour' },
  } satisfies Omit<ScheduleOptions, 'scheduleId'>;
}

export interface NewDrillSchedule {
  organizationId: string;
  target: DrillTarget;
  channels?: DrillChannel[];
  cron: string;
  timeZone: string;
  ackWindowSeconds: number;
  audit: Extract<AuditActor, { kind: 'user' }>;
}

/**
 * Refuses (403 `plan_limit_reached`) a recurring drill past the plan's `recurringDrills`: each one
 * pages people on its own cron, so their number bounds what drills can send (docs/drills.md). The
 * caller holds the workspace's drill-schedule lock, so two creations cannot both take the last place.
 */
async function assertRoomForSchedule(trx: Knex, organizationId: string): Promise<void> {
  const org = await trx('organizations').select('plan').where({ id: organizationId }).first();
  if (!org) throw notFound('workspace not found');
  const limit = PLAN_LIMITS[org.plan as Plan].recurringDrills;
  const [{ n }] = await trx('drill_schedules').where({ organization_id: organizationId }).count({ n: '*' });
  if (Number(n) >= limit) {
    throw forbidden(`the ${org.plan} plan allows ${limit} recurring drills; this workspace has ${n} (delete one first)`, 'plan_limit_reached');
  }
}

/** Writes the recurring drill, then its Temporal Schedule; if Temporal refuses, the row goes again. */
export async function createDrillSchedule(orm: MikroORM, temporal: { client: Client; taskQueue: string }, input: NewDrillSchedule): Promise<DrillScheduleJson> {
  await drillPeopleIds(orm, input.organizationId, input.target, new Date()); // 404 for a target not of the workspace
  const k = knexOf(orm);
  const row = {
    id: randomUUID(),
    organization_id: input.organizationId,
    target_type: input.target.type,
    target_id: input.target.id,
    channels: input.channels ? JSON.stringify(input.channels) : null,
    cron: input.cron,
    time_zone: input.timeZone,
    ack_window_seconds: input.ackWindowSeconds,
    created_by: input.audit.userId,
    created_at: new Date(),
  };
  await k.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`drill-schedules:${input.organizationId}`]);
    await assertRoomForSchedule(trx, input.organizationId);
    await trx('drill_schedules').insert(row);
    await recordAudit(trx, {
      organizationId: input.organizationId,
      actor: input.audit,
      action: 'drill_schedule.create',
      targetType: 'drill_schedule',
      targetId: row.id,
      details: { target_type: input.target.type, target_id: input.target.id, cron: input.cron, time_zone: input.timeZone, channels: input.channels ?? null },
    });
  });
  try {
    await temporal.client.schedule.create({
      scheduleId: drillScheduleTemporalId(row.id),
      ...temporalSchedule(row.id, { cron: input.cron, timeZone: input.timeZone, taskQueue: temporal.taskQueue }),
    });
  } catch (err) {
    await k('drill_schedules').where({ id: row.id }).delete();
    throw err;
  }
  return scheduleJson({ ...row, channels: input.channels ?? null });
}

export async function listDrillSchedules(orm: MikroORM, organizationId: string): Promise<DrillScheduleJson[]> {
  const rows = await knexOf(orm)('drill_schedules')
    .where({ organization_id: organizationId })
    .orderBy([{ column: 'created_at' }, { column: 'id' }]);
  return rows.map(scheduleJson);
}

export async function getDrillSchedule(orm: MikroORM, organizationId: string, id: string): Promise<DrillScheduleJson> {
  const row = await knexOf(orm)('drill_schedules').where({ id, organization_id: organizationId }).first();
  if (!row) throw notFound(`drill schedule ${id} not found`);
  return scheduleJson(row);
}

/** Removes the Temporal Schedule (already gone is fine), then the row: no firing outlives it. */
export async function deleteDrillSchedule(orm: MikroORM, client: Client, input: { organizationId: string; id: string; audit: AuditActor }): Promise<void> {
  const schedule = await getDrillSchedule(orm, input.organizationId, input.id);
  const { ScheduleNotFoundError } = await import('@temporalio/client');
  try {
    await client.schedule.getHandle(drillScheduleTemporalId(input.id)).delete();
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
  }
  await knexOf(orm).transaction(async (trx) => {
    await trx('drill_schedules').where({ id: input.id }).delete();
    await recordAudit(trx, {
      organizationId: input.organizationId,
      actor: input.audit,
      action: 'drill_schedule.delete',
      targetType: 'drill_schedule',
      targetId: input.id,
      details: { target_type: schedule.target.type, target_id: schedule.target.id, cron: schedule.cron },
    });
  });
}
