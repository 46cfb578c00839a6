import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { onCallAt, shiftsBetween, type Layer, type Override } from '../../domain/schedule';
import { knexOf } from '../../db/knex';
import { invalid } from '../errors';
import { getSchedule, validated, validDate, type ScheduleRow } from './schedule-rows';

/** Who is on call on a schedule, and when that changes (src/domain/schedule decides). */

/** How far ahead the next hand-off is looked for. */
const HANDOFF_HORIZON_MS = 90 * 86_400_000;

async function specOf(knex: Knex, schedule: ScheduleRow, from: Date, to: Date): Promise<{ timeZone: string; layers: Layer[]; overrides: Override[] }> {
  const overrides = await knex('schedule_overrides')
    .select('user_id', 'starts_at', 'ends_at')
    .where({ schedule_id: schedule.id })
    .andWhere('starts_at', '<', to)
    .andWhere('ends_at', '>', from)
    .orderBy([{ column: 'starts_at' }, { column: 'id' }]);
  return {
    timeZone: schedule.time_zone,
    layers: schedule.layers,
    overrides: overrides.map((o: { user_id: string; starts_at: Date | string; ends_at: Date | string }) => ({ userId: o.user_id, from: new Date(o.starts_at), to: new Date(o.ends_at) })),
  };
}

/** Ids and emails of members of the workspace, in the order given; others are left out. */
async function membersInOrder(knex: Knex, organizationId: string, ids: string[]): Promise<Array<{ id: string; email: string }>> {
  if (ids.length === 0) return [];
  const rows: Array<{ id: string; email: string }> = await knex('users as u')
    .join('memberships as m', 'm.user_id', 'u.id')
    .select('u.id', 'u.email')
    .where('m.organization_id', organizationId)
    .whereIn('u.id', ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => (byId.has(id) ? [{ id, email: byId.get(id)!.email }] : []));
}

/** Ids and emails of who is on call, in the schedule's order; people no longer in the workspace are left out. */
async function onCallMembers(orm: MikroORM, scheduleId: string, at: Date, organizationId?: string): Promise<Array<{ id: string; email: string }>> {
  if (!validDate(at)) throw invalid('at must be a valid instant');
  const knex = knexOf(orm);
  const schedule = await getSchedule(knex, scheduleId, organizationId);
  const spec = await specOf(knex, schedule, at, new Date(at.getTime() + 1));
  return membersInOrder(knex, schedule.organization_id, validated(() => onCallAt(spec, at)));
}

/** Who is on call on a schedule at an instant. */
export async function onCall(orm: MikroORM, input: { scheduleId: string; at: Date }): Promise<{ users: Array<{ id: string; email: string }> }> {
  return { users: await onCallMembers(orm, input.scheduleId, input.at) };
}

/** Who is on call at `at` on a schedule of the workspace, and the next hand-off within 90 days (null when none). */
export async function onCallWithHandoff(
  orm: MikroORM,
  input: { scheduleId: string; organizationId: string; at: Date },
): Promise<{ at: string; users: Array<{ id: string; email: string }>; next_handoff: { at: string; users: Array<{ id: string; email: string }> } | null }> {
  if (!validDate(input.at)) throw invalid('at: must be a valid instant');
  const knex = knexOf(orm);
  const schedule = await getSchedule(knex, input.scheduleId, input.organizationId);
  const until = new Date(input.at.getTime() + HANDOFF_HORIZON_MS);
  const spec = await specOf(knex, schedule, input.at, until);
  const spans = validated(() => shiftsBetween(spec, input.at, until));
  const next = spans[1];
  return {
    at: input.at.toISOString(),
    users: await membersInOrder(knex, schedule.organization_id, spans[0]?.userIds ?? []),
    next_handoff: next ? { at: next.start.toISOString(), users: await membersInOrder(knex, schedule.organization_id, next.userIds) } : null,
  };
}

/** The user ids on call at `at`, for paging a schedule target. */
export async function onCallUserIds(orm: MikroORM, scheduleId: string, at: Date): Promise<string[]> {
  return (await onCallMembers(orm, scheduleId, at)).map((u) => u.id);
}

