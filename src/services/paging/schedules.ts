import { randomUUID } from 'node:crypto';
import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { isUuid } from '../../domain/ids';
import { onCallAt, parseLayers, ScheduleInputError, zoneOf, type Layer } from '../../domain/schedule';
import { knexOf } from '../../db/knex';
import { invalid, notFound } from '../errors';
import { iso } from '../../db/timestamps';
import { getOrganization } from '../workspace/workspaces';

/** On-call schedules: creation, overrides, and who is on call (src/domain/schedule decides). */

interface ScheduleRow {
  id: string;
  organization_id: string;
  name: string;
  time_zone: string;
  layers: Layer[];
}

/** Runs a domain step, reporting its input errors as `invalid`. */
function validated<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof ScheduleInputError) throw invalid(err.message);
    throw err;
  }
}

const scheduleJson = (r: ScheduleRow) => ({ id: r.id, organization_id: r.organization_id, name: r.name, time_zone: r.time_zone, layers: r.layers });
export type ScheduleJson = ReturnType<typeof scheduleJson>;

/** Members of the workspace matching emails or ids, keyed by both (emails lower-cased). */
async function membersByRef(knex: Knex, organizationId: string, refs: string[]): Promise<Map<string, string>> {
  const emails = refs.filter((r) => !isUuid(r)).map((r) => r.toLowerCase());
  const ids = refs.filter(isUuid).map((r) => r.toLowerCase());
  const rows: Array<{ id: string; email: string }> = await knex('users as u')
    .join('memberships as m', 'm.user_id', 'u.id')
    .select('u.id', 'u.email')
    .where('m.organization_id', organizationId)
    .andWhere((q) => void q.whereIn('u.email', emails).orWhereIn('u.id', ids));
  return new Map(rows.flatMap((r) => [[r.email, r.id], [r.id, r.id]] as Array<[string, string]>));
}

/** Creates a schedule; layer users (emails or ids) must be members of the workspace and are stored as ids. */
export async function createSchedule(
  orm: MikroORM,
  input: { organizationId: string; name: string; timeZone: string; layers: unknown },
): Promise<ScheduleJson> {
  if (!isUuid(input.organizationId)) throw invalid('organization id must be a UUID');
  const name = input.name.trim();
  if (!name || name.length > 255) throw invalid('name must be 1 to 255 characters');
  const layers = validated(() => {
    zoneOf(input.timeZone);
    return parseLayers(input.layers);
  });
  await getOrganization(orm, input.organizationId);
  const knex = knexOf(orm);
  const members = await membersByRef(knex, input.organizationId, [...new Set(layers.flatMap((l) => l.users))]);
  const stored = layers.map((layer, i) => ({
    ...layer,
    users: layer.users.map((ref) => {
      const id = members.get(ref.toLowerCase());
      if (!id) throw invalid(`layers[${i}].users: ${ref} is not a member of this workspace`);
      return id;
    }),
  }));
  const now = new Date();
  const row = { id: randomUUID(), organization_id: input.organizationId, name, time_zone: input.timeZone, layers: stored };
  await knex('schedules').insert({ ...row, layers: JSON.stringify(stored), created_at: now, updated_at: now });
  return scheduleJson(row);
}

async function getSchedule(knex: Knex, id: string): Promise<ScheduleRow> {
  if (!isUuid(id)) throw invalid('schedule id must be a UUID');
  const row = await knex('schedules').select('id', 'organization_id', 'name', 'time_zone', 'layers').where({ id }).first();
  if (!row) throw notFound(`schedule ${id} not found`);
  return row as ScheduleRow;
}

const validDate = (d: Date) => d instanceof Date && !Number.isNaN(d.getTime());

/** Puts a member of the schedule's workspace on call for [from, to), above every layer. */
export async function addScheduleOverride(orm: MikroORM, input: { scheduleId: string; email: string; from: Date; to: Date }) {
  if (!validDate(input.from) || !validDate(input.to)) throw invalid('from and to must be valid instants');
  if (input.from.getTime() >= input.to.getTime()) throw invalid('from must be before to');
  const knex = knexOf(orm);
  const schedule = await getSchedule(knex, input.scheduleId);
  const email = input.email.trim().toLowerCase();
  const userId = (await membersByRef(knex, schedule.organization_id, [email])).get(email);
  if (!userId) throw invalid(`${input.email} is not a member of this schedule's workspace`);
  const row = { id: randomUUID(), schedule_id: schedule.id, user_id: userId, starts_at: input.from, ends_at: input.to, created_at: new Date() };
  await knex('schedule_overrides').insert(row);
  return { id: row.id, schedule_id: row.schedule_id, user_id: userId, from: iso(row.starts_at), to: iso(row.ends_at) };
}

/** Ids and emails of who is on call, in the schedule's order; people no longer in the workspace are left out. */
async function onCallMembers(orm: MikroORM, scheduleId: string, at: Date): Promise<Array<{ id: string; email: string }>> {
  if (!validDate(at)) throw invalid('at must be a valid instant');
  const knex = knexOf(orm);
  const schedule = await getSchedule(knex, scheduleId);
  const overrides = await knex('schedule_overrides')
    .select('user_id', 'starts_at', 'ends_at')
    .where({ schedule_id: schedule.id })
    .andWhere('starts_at', '<=', at)
    .andWhere('ends_at', '>', at)
    .orderBy([{ column: 'starts_at' }, { column: 'id' }]);
  const ids = validated(() =>
    onCallAt(
      {
        timeZone: schedule.time_zone,
        layers: schedule.layers,
        overrides: overrides.map((o: { user_id: string; starts_at: Date | string; ends_at: Date | string }) => ({ userId: o.user_id, from: new Date(o.starts_at), to: new Date(o.ends_at) })),
      },
      at,
    ),
  );
  if (ids.length === 0) return [];
  const rows: Array<{ id: string; email: string }> = await knex('users as u')
    .join('memberships as m', 'm.user_id', 'u.id')
    .select('u.id', 'u.email')
    .where('m.organization_id', schedule.organization_id)
    .whereIn('u.id', ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => (byId.has(id) ? [{ id, email: byId.get(id)!.email }] : []));
}

/** Who is on call on a schedule at an instant. */
export async function onCall(orm: MikroORM, input: { scheduleId: string; at: Date }): Promise<{ users: Array<{ id: string; email: string }> }> {
  return { users: await onCallMembers(orm, input.scheduleId, input.at) };
}

/** The user ids on call at `at`, for paging a schedule target. */
export async function onCallUserIds(orm: MikroORM, scheduleId: string, at: Date): Promise<string[]> {
  return (await onCallMembers(orm, scheduleId, at)).map((u) => u.id);
}
