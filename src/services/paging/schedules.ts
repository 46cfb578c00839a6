import { randomUUID } from 'node:crypto';
import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { isUuid } from '../../domain/ids';
import { canonicalJson } from '../../domain/ingest/canonical-json';
import { parseLayers, ScheduleInputError, zoneOf, type Layer } from '../../domain/schedule';
import { knexOf } from '../../db/knex';
import { recordAudit, SYSTEM_CLI } from '../audit';
import { invalid } from '../errors';
import { getOrganization } from '../workspace/workspaces';
import type { ChangeOptions } from './changes';
import { refuseWhileTargeted } from './escalation-policies';
import { currentRow, getSchedule, membersByRef, onCallMemberId, validated, type ScheduleRow } from './schedule-rows';

/** On-call schedules: creation, changes and deletion (src/domain/schedule validates layers); overrides and on-call are re-exported. */

export * from './on-call';
export * from './schedule-overrides';

const scheduleJson = (r: ScheduleRow) => ({ id: r.id, organization_id: r.organization_id, name: r.name, time_zone: r.time_zone, layers: r.layers });
export type ScheduleJson = ReturnType<typeof scheduleJson>;
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
    users: layer.users.map((ref) => onCallMemberId(members, ref, `layers[${i}].users`, 'this workspace')),
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
    await recordAudit(trx, {
      organizationId: row.organization_id,
      actor: opts.actor ?? SYSTEM_CLI,
      action: 'schedule.create',
      targetType: 'schedule',
      targetId: row.id,
      details: auditDetails(row),
    });
  });
  return scheduleJson(row);
}

/** A schedule of the workspace (another workspace's is not found). */
export async function getScheduleOf(orm: MikroORM, input: { id: string; organizationId: string }): Promise<ScheduleJson> {
  return scheduleJson(await getSchedule(knexOf(orm), input.id, input.organizationId));
}

/** A workspace's schedules by name. */
export async function listSchedules(orm: MikroORM, organizationId: string): Promise<ScheduleJson[]> {
  const rows = await knexOf(orm)('schedules')
    .select('id', 'organization_id', 'name', 'time_zone', 'layers')
    .where({ organization_id: organizationId })
    .orderBy([{ column: 'name' }, { column: 'id' }]);
  return rows.map((r) => scheduleJson(currentRow(r)));
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
    await trx('schedules')
      .update({ name, time_zone: timeZone, layers: JSON.stringify(layers), updated_at: new Date() })
      .where({ id: row.id });
    await recordAudit(trx, {
      organizationId: row.organization_id,
      actor: opts.actor ?? SYSTEM_CLI,
      action: 'schedule.update',
      targetType: 'schedule',
      targetId: row.id,
      details: { ...auditDetails(row), changed },
    });
  });
  return scheduleJson(row);
}

/** Deletes a schedule (and its overrides) that no escalation policy targets; one in use is a conflict naming the policies. */
export async function deleteSchedule(
  orm: MikroORM,
  input: { id: string; organizationId: string },
  opts: ChangeOptions = {},
): Promise<{ id: string; deleted: true }> {
  const knex = knexOf(orm);
  const schedule = await getSchedule(knex, input.id, input.organizationId);
  await knex.transaction(async (trx) => {
    await trx('schedules').select('id').where({ id: schedule.id }).forUpdate();
    await refuseWhileTargeted(trx, schedule.organization_id, { type: 'schedule', id: schedule.id, name: schedule.name });
    await trx('schedule_overrides').where({ schedule_id: schedule.id }).delete();
    await trx('schedules').where({ id: schedule.id }).delete();
    await recordAudit(trx, {
      organizationId: schedule.organization_id,
      actor: opts.actor ?? SYSTEM_CLI,
      action: 'schedule.delete',
      targetType: 'schedule',
      targetId: schedule.id,
      details: { name: schedule.name },
    });
  });
  return { id: schedule.id, deleted: true };
}
