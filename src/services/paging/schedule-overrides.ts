import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { isUuid } from '../../domain/ids';
import { knexOf } from '../../db/knex';
import { iso } from '../../db/timestamps';
import { recordAudit, SYSTEM_CLI } from '../audit';
import { invalid, notFound } from '../errors';
import type { ChangeOptions } from './changes';
import { getSchedule, membersByRef, onCallMemberId, validDate } from './schedule-rows';

/** Schedule overrides: someone on call for a while instead of the layers. */

interface OverrideRow {
  id: string;
  schedule_id: string;
  user_id: string;
  starts_at: Date | string;
  ends_at: Date | string;
}
const overrideJson = (r: OverrideRow & { email?: string }) => ({
  id: r.id,
  schedule_id: r.schedule_id,
  user_id: r.user_id,
  ...(r.email === undefined ? {} : { email: r.email }),
  from: iso(r.starts_at),
  to: iso(r.ends_at),
});
export type ScheduleOverrideJson = ReturnType<typeof overrideJson>;

/**
 * Puts a member of the schedule's workspace (by email, or by `userId`) on call for [from, to),
 * above every layer. With `organizationId`, another workspace's schedule is not found.
 */
export async function addScheduleOverride(
  orm: MikroORM,
  input: { scheduleId: string; email?: string; userId?: string; from: Date; to: Date; organizationId?: string },
  opts: ChangeOptions = {},
) {
  if (!validDate(input.from) || !validDate(input.to)) throw invalid('from and to must be valid instants');
  if (input.from.getTime() >= input.to.getTime()) throw invalid('to: must be after from');
  const knex = knexOf(orm);
  const schedule = await getSchedule(knex, input.scheduleId, input.organizationId);
  const ref = (input.userId ?? input.email ?? '').trim().toLowerCase();
  const field = input.userId ? 'user_id' : 'email';
  if (!ref) throw invalid(`${field}: ${input.userId ?? input.email} is not a member of this schedule's workspace`);
  const userId = onCallMemberId(await membersByRef(knex, schedule.organization_id, [ref]), ref, field);
  const row = { id: randomUUID(), schedule_id: schedule.id, user_id: userId, starts_at: input.from, ends_at: input.to, created_at: new Date() };
  await knex.transaction(async (trx) => {
    await trx('schedule_overrides').insert(row);
    await recordAudit(trx, {
      organizationId: schedule.organization_id,
      actor: opts.actor ?? SYSTEM_CLI,
      action: 'schedule_override.create',
      targetType: 'schedule_override',
      targetId: row.id,
      details: { schedule_id: schedule.id, schedule: schedule.name, user_id: userId, from: iso(row.starts_at), to: iso(row.ends_at) },
    });
  });
  return overrideJson(row);
}

/** A schedule's overrides that have not ended by `after` (default now), soonest first. */
export async function listScheduleOverrides(
  orm: MikroORM,
  input: { scheduleId: string; organizationId: string; after?: Date },
): Promise<ScheduleOverrideJson[]> {
  const knex = knexOf(orm);
  const schedule = await getSchedule(knex, input.scheduleId, input.organizationId);
  const rows = await knex('schedule_overrides as o')
    .join('users as u', 'u.id', 'o.user_id')
    .select('o.id', 'o.schedule_id', 'o.user_id', 'u.email', 'o.starts_at', 'o.ends_at')
    .where('o.schedule_id', schedule.id)
    .andWhere('o.ends_at', '>', input.after ?? new Date())
    .orderBy([{ column: 'o.starts_at' }, { column: 'o.id' }]);
  return rows.map(overrideJson);
}

/** Removes one override of a schedule of the workspace. */
export async function removeScheduleOverride(
  orm: MikroORM,
  input: { scheduleId: string; overrideId: string; organizationId: string },
  opts: ChangeOptions = {},
) {
  const knex = knexOf(orm);
  const schedule = await getSchedule(knex, input.scheduleId, input.organizationId);
  if (!isUuid(input.overrideId)) throw invalid('override id must be a UUID');
  await knex.transaction(async (trx) => {
    const row: OverrideRow | undefined = await trx('schedule_overrides').select('*').where({ id: input.overrideId, schedule_id: schedule.id }).first();
    if (!row) throw notFound(`override ${input.overrideId} not found on schedule ${schedule.id}`);
    await trx('schedule_overrides').where({ id: row.id }).delete();
    await recordAudit(trx, {
      organizationId: schedule.organization_id,
      actor: opts.actor ?? SYSTEM_CLI,
      action: 'schedule_override.delete',
      targetType: 'schedule_override',
      targetId: row.id,
      details: { schedule_id: schedule.id, schedule: schedule.name, user_id: row.user_id, from: iso(row.starts_at), to: iso(row.ends_at) },
    });
  });
  return { id: input.overrideId, deleted: true as const };
}
