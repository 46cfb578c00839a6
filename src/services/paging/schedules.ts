import { randomUUID } from 'node:crypto';
import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { isUuid } from '../../domain/ids';
import { onCallAt, parseLayers, ScheduleInputError, shiftsBetween, zoneOf, type Layer, type Override } from '../../domain/schedule';
import { canonicalJson } from '../../domain/ingest/canonical-json';
import { knexOf } from '../../db/knex';
import { recordAudit, SYSTEM_CLI } from '../audit';
import { conflict, invalid, notFound } from '../errors';
import { iso } from '../../db/timestamps';
import { getOrganization } from '../workspace/workspaces';
import type { ChangeOptions } from './changes';

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

const checkedName = (raw: string) => {
  const name = raw.trim();
  if (!name || name.length > 255) throw invalid('name: must be 1 to 255 characters');
  return name;
};

/** Checks the zone and layers, and stores layer users (emails or ids, members of the workspace) as ids. */
async function storedLayers(knex: Knex, organizationId: string, timeZone: string, rawLayers: unknown): Promise<Layer[]> {
  const layers = validated(() => {
    try {
      zoneOf(timeZone);
    } catch (err) {
      if (err instanceof ScheduleInputError) throw new ScheduleInputError(`time_zone: ${err.message}`);
      throw err;
    }
    return parseLayers(rawLayers);
  });
  const members = await membersByRef(knex, organizationId, [...new Set(layers.flatMap((l) => l.users))]);
  return layers.map((layer, i) => ({
    ...layer,
    users: layer.users.map((ref) => {
      const id = members.get(ref.toLowerCase());
      if (!id) throw invalid(`layers[${i}].users: ${ref} is not a member of this workspace`);
      return id;
    }),
  }));
}

const auditDetails = (r: ScheduleRow) => ({ name: r.name, time_zone: r.time_zone, layers: r.layers.length });

/** Creates a schedule; layer users (emails or ids) must be members of the workspace and are stored as ids. */
export async function createSchedule(
  orm: MikroORM,
  input: { organizationId: string; name: string; timeZone: string; layers: unknown },
  opts: ChangeOptions = {},
): Promise<ScheduleJson> {
  if (!isUuid(input.organizationId)) throw invalid('organization id must be a UUID');
  const name = checkedName(input.name);
  const knex = knexOf(orm);
  // Shape first, so a bad request is answered without touching the database.
  validated(() => parseLayers(input.layers));
  await getOrganization(orm, input.organizationId);
  const layers = await storedLayers(knex, input.organizationId, input.timeZone, input.layers);
  const now = new Date();
  const row = { id: randomUUID(), organization_id: input.organizationId, name, time_zone: input.timeZone, layers };
  await knex.transaction(async (trx) => {
    await trx('schedules').insert({ ...row, layers: JSON.stringify(layers), created_at: now, updated_at: now });
    await recordAudit(trx, { organizationId: row.organization_id, actor: opts.actor ?? SYSTEM_CLI, action: 'schedule.create', targetType: 'schedule', targetId: row.id, details: auditDetails(row) });
  });
  return scheduleJson(row);
}

async function getSchedule(knex: Knex, id: string, organizationId?: string): Promise<ScheduleRow> {
  if (!isUuid(id)) throw invalid('schedule id must be a UUID');
  const row = await knex('schedules')
    .select('id', 'organization_id', 'name', 'time_zone', 'layers')
    .where({ id, ...(organizationId ? { organization_id: organizationId } : {}) })
    .first();
  if (!row) throw notFound(`schedule ${id} not found`);
  return row as ScheduleRow;
}

/** A schedule of the workspace (another workspace's is not found). */
export async function getScheduleOf(orm: MikroORM, input: { id: string; organizationId: string }): Promise<ScheduleJson> {
  return scheduleJson(await getSchedule(knexOf(orm), input.id, input.organizationId));
}

/** A workspace's schedules by name. */
export async function listSchedules(orm: MikroORM, organizationId: string): Promise<ScheduleJson[]> {
  const rows = await knexOf(orm)('schedules').select('id', 'organization_id', 'name', 'time_zone', 'layers').where({ organization_id: organizationId }).orderBy([{ column: 'name' }, { column: 'id' }]);
  return rows.map(scheduleJson);
}

/** Changes a schedule's name, zone or layers (absent fields keep their value), checked as on creation. */
export async function updateSchedule(
  orm: MikroORM,
  input: { id: string; organizationId: string; changes: { name?: string; timeZone?: string; layers?: unknown } },
  opts: ChangeOptions = {},
): Promise<ScheduleJson> {
  const knex = knexOf(orm);
  const current = await getSchedule(knex, input.id, input.organizationId);
  const c = input.changes;
  const name = c.name === undefined ? current.name : checkedName(c.name);
  const timeZone = c.timeZone ?? current.time_zone;
  const layers = await storedLayers(knex, current.organization_id, timeZone, c.layers ?? current.layers);
  const row = { ...current, name, time_zone: timeZone, layers };
  const changed = (['name', 'time_zone', 'layers'] as const).filter((k) => canonicalJson(row[k]) !== canonicalJson(current[k]));
  await knex.transaction(async (trx) => {
    await trx('schedules').update({ name, time_zone: timeZone, layers: JSON.stringify(layers), updated_at: new Date() }).where({ id: row.id });
    await recordAudit(trx, { organizationId: row.organization_id, actor: opts.actor ?? SYSTEM_CLI, action: 'schedule.update', targetType: 'schedule', targetId: row.id, details: { ...auditDetails(row), changed } });
  });
  return scheduleJson(row);
}

/** Deletes a schedule (and its overrides) that no escalation policy targets; one in use is a conflict naming the policies. */
export async function deleteSchedule(orm: MikroORM, input: { id: string; organizationId: string }, opts: ChangeOptions = {}): Promise<{ id: string; deleted: true }> {
  const knex = knexOf(orm);
  const schedule = await getSchedule(knex, input.id, input.organizationId);
  await knex.transaction(async (trx) => {
    await trx('schedules').select('id').where({ id: schedule.id }).forUpdate();
    const target = JSON.stringify([{ targets: [{ type: 'schedule', id: schedule.id }] }]);
    const policies: Array<{ name: string }> = await trx('escalation_policies')
      .select('name')
      .where({ organization_id: schedule.organization_id })
      .whereRaw('steps::jsonb @> ?::jsonb', [target])
      .orderBy('name');
    if (policies.length) {
      throw conflict(`schedule ${schedule.name} is a target of ${policies.length} escalation policy(ies): ${policies.map((p) => p.name).join(', ')}; remove it from their steps first`, 'schedule_in_use');
    }
    await trx('schedule_overrides').where({ schedule_id: schedule.id }).delete();
    await trx('schedules').where({ id: schedule.id }).delete();
    await recordAudit(trx, { organizationId: schedule.organization_id, actor: opts.actor ?? SYSTEM_CLI, action: 'schedule.delete', targetType: 'schedule', targetId: schedule.id, details: { name: schedule.name } });
  });
  return { id: schedule.id, deleted: true };
}

const validDate = (d: Date) => d instanceof Date && !Number.isNaN(d.getTime());

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
  if (input.from.getTime() >= input.to.getTime()) throw invalid('to: from must be before to');
  const knex = knexOf(orm);
  const schedule = await getSchedule(knex, input.scheduleId, input.organizationId);
  const ref = (input.userId ?? input.email ?? '').trim().toLowerCase();
  const userId = ref ? (await membersByRef(knex, schedule.organization_id, [ref])).get(ref) : undefined;
  if (!userId) throw invalid(`${input.userId ? 'user_id' : 'email'}: ${input.userId ?? input.email} is not a member of this schedule's workspace`);
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
export async function listScheduleOverrides(orm: MikroORM, input: { scheduleId: string; organizationId: string; after?: Date }): Promise<ScheduleOverrideJson[]> {
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
export async function removeScheduleOverride(orm: MikroORM, input: { scheduleId: string; overrideId: string; organizationId: string }, opts: ChangeOptions = {}) {
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
