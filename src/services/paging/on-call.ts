import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { onCallAt, shiftsBetween, type Layer, type OnCallSpan, type Override } from '../../domain/schedule';
import { knexOf } from '../../db/knex';
import { NEVER_PAGED_ROLE } from '../../domain/roles';
import { invalid } from '../errors';
import { currentRow, getSchedule, validated, validDate, type ScheduleRow } from './schedule-rows';

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
    overrides: overrides.map((o: { user_id: string; starts_at: Date | string; ends_at: Date | string }) => ({
      userId: o.user_id,
      from: new Date(o.starts_at),
      to: new Date(o.ends_at),
    })),
  };
}

/** A member as the dashboard names them. */
export interface NamedMember {
  id: string;
  name: string | null;
  email: string;
}

/**
 * Those of `ids` who are members of the workspace, by id: people who left are not in it, nor
 * Stakeholders, who are never on call (a member made one after a schedule named them).
 */
async function namedMembers(knex: Knex, organizationId: string, ids: string[]): Promise<Map<string, NamedMember>> {
  if (ids.length === 0) return new Map();
  const rows: NamedMember[] = await knex('users as u')
    .join('memberships as m', 'm.user_id', 'u.id')
    .select('u.id', 'u.name', 'u.email')
    .where('m.organization_id', organizationId)
    .whereNot('m.role', NEVER_PAGED_ROLE)
    .whereIn('u.id', ids);
  return new Map(rows.map((r) => [r.id, { id: r.id, name: r.name ?? null, email: r.email }]));
}

/** Ids and emails of members of the workspace, in the order given; others are left out. */
async function membersInOrder(knex: Knex, organizationId: string, ids: string[]): Promise<Array<{ id: string; email: string }>> {
  const members = await namedMembers(knex, organizationId, ids);
  return ids.flatMap((id) => {
    const member = members.get(id);
    return member ? [{ id, email: member.email }] : [];
  });
}

/** Ids and emails of who is on call, in the schedule's order; people no longer in the workspace are left out. */
async function onCallMembers(orm: MikroORM, scheduleId: string, at: Date, organizationId?: string): Promise<Array<{ id: string; email: string }>> {
  if (!validDate(at)) throw invalid('at must be a valid instant');
  const knex = knexOf(orm);
  const schedule = await getSchedule(knex, scheduleId, organizationId);
  const spec = await specOf(knex, schedule, at, new Date(at.getTime() + 1));
  return membersInOrder(
    knex,
    schedule.organization_id,
    validated(() => onCallAt(spec, at)),
  );
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

/** A stretch of time with the same people on call, overrides applied, as the dashboard reads it. */
export interface ShiftJson {
  start: string;
  end: string;
  user_ids: string[];
  users: NamedMember[];
}

/** The longest window `shifts` answers: a calendar of five weeks. */
export const SHIFTS_MAX_DAYS = 35;

/**
 * Who is on call over [from, to) on a schedule of the workspace (at most 35 days), as consecutive
 * shifts with overrides applied; a stretch with nobody on call is a shift with no users.
 */
export async function scheduleShifts(orm: MikroORM, input: { scheduleId: string; organizationId: string; from: Date; to: Date }): Promise<ShiftJson[]> {
  if (!validDate(input.from)) throw invalid('from: must be a valid instant');
  if (!validDate(input.to)) throw invalid('to: must be a valid instant');
  if (!(input.to.getTime() > input.from.getTime())) throw invalid('to: must be after from');
  if (input.to.getTime() - input.from.getTime() > SHIFTS_MAX_DAYS * 86_400_000) throw invalid(`to: must be at most ${SHIFTS_MAX_DAYS} days after from`);
  const knex = knexOf(orm);
  const schedule = await getSchedule(knex, input.scheduleId, input.organizationId);
  const spec = await specOf(knex, schedule, input.from, input.to);
  const spans = validated(() => shiftsBetween(spec, input.from, input.to));
  const members = await namedMembers(knex, schedule.organization_id, [...new Set(spans.flatMap((s) => s.userIds))]);
  return spans.map((s) => {
    // Someone who left the workspace is still in the layers until they are edited; they are not paged, so not shown.
    const users = s.userIds.flatMap((id) => members.get(id) ?? []);
    return { start: s.start.toISOString(), end: s.end.toISOString(), user_ids: users.map((u) => u.id), users };
  });
}

/** When one person is on call: consecutive spans naming them, joined (a co-on-call override does not split a shift). */
export function shiftsOfUser(spans: readonly OnCallSpan[], userId: string): Array<{ start: Date; end: Date }> {
  const mine: Array<{ start: Date; end: Date }> = [];
  for (const span of spans) {
    if (!span.userIds.includes(userId)) continue;
    const last = mine.at(-1);
    if (last && last.end.getTime() === span.start.getTime()) last.end = span.end;
    else mine.push({ start: span.start, end: span.end });
  }
  return mine;
}

/** One schedule in "my on-call": the shift I am in now, and my next one. */
export interface MyScheduleOnCall {
  schedule: { id: string; name: string; time_zone: string };
  /** My shift that covers `at` (its start at most 35 days back, its end at most 90 days ahead), or null. */
  current: { start: string; end: string } | null;
  /** My next shift starting after `at` (after the current one), within 90 days, or null. */
  next: { start: string; end: string } | null;
}

const LOOKBACK_MS = 35 * 86_400_000;
const interval = (s: { start: Date; end: Date }) => ({ start: s.start.toISOString(), end: s.end.toISOString() });

/**
 * The signed-in member's on-call: for each schedule of the workspace where they are on call now
 * or within 90 days, the current shift and the next; `on_call_now` when any schedule has them now.
 */
export async function myOnCall(
  orm: MikroORM,
  input: { organizationId: string; userId: string; at: Date },
): Promise<{ at: string; on_call_now: boolean; schedules: MyScheduleOnCall[] }> {
  if (!validDate(input.at)) throw invalid('at: must be a valid instant');
  const knex = knexOf(orm);
  const rows: ScheduleRow[] = (
    await knex('schedules')
      .select('id', 'organization_id', 'name', 'time_zone', 'layers')
      .where({ organization_id: input.organizationId })
      .orderBy([{ column: 'name' }, { column: 'id' }])
  ).map(currentRow);
  const until = new Date(input.at.getTime() + HANDOFF_HORIZON_MS);
  // Looked at from a little earlier, so the current shift starts when it really started.
  const since = new Date(input.at.getTime() - LOOKBACK_MS);
  const at = input.at.getTime();
  const schedules: MyScheduleOnCall[] = [];
  for (const row of rows) {
    const spec = await specOf(knex, row, since, until);
    const mine = shiftsOfUser(
      validated(() => shiftsBetween(spec, since, until)),
      input.userId,
    ).filter((s) => s.end.getTime() > at);
    const current = mine[0] && mine[0].start.getTime() <= at ? mine[0] : undefined;
    const next = current ? mine[1] : mine[0];
    if (!current && !next) continue;
    schedules.push({
      schedule: { id: row.id, name: row.name, time_zone: row.time_zone },
      current: current ? interval(current) : null,
      next: next ? interval(next) : null,
    });
  }
  return { at: input.at.toISOString(), on_call_now: schedules.some((s) => s.current !== null), schedules };
}
