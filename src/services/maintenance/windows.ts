import { randomUUID } from 'node:crypto';
import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import { iso, isoOrNull } from '../../db/timestamps';
import { maintenanceState, windowSpanProblem, type MaintenanceState } from '../../domain/maintenance';
import { recordAudit, type AuditActor } from '../audit';
import { conflict, invalid, notFound } from '../errors';

/** The one writer of `maintenance_windows` (docs/maintenance-windows.md). */

interface WindowRow {
  id: string;
  organization_id: string;
  service_ids: string[];
  starts_at: Date | string;
  ends_at: Date | string;
  reason: string;
  ended_early_at: Date | string | null;
  created_by: string | null;
  created_at: Date | string;
}

/** A window as the dashboard shows it; `state` at the moment of the answer. */
export function windowJson(r: WindowRow, now: Date) {
  return {
    id: r.id,
    service_ids: r.service_ids,
    starts_at: iso(r.starts_at),
    ends_at: iso(r.ends_at),
    reason: r.reason,
    state: maintenanceState({ startsAt: new Date(r.starts_at), endsAt: new Date(r.ends_at) }, now),
    ended_early_at: isoOrNull(r.ended_early_at),
    created_by: r.created_by,
    created_at: iso(r.created_at),
  };
}
export type MaintenanceWindowJson = ReturnType<typeof windowJson>;

/** How many windows not yet ended a workspace may hold: a bound on what every escalation reads. */
const MAX_OPEN_WINDOWS = 500;

/** The owning team of each named service of the workspace that exists, by service id. */
export async function teamsOfServices(orm: MikroORM, organizationId: string, serviceIds: string[]): Promise<Map<string, string>> {
  const rows: Array<{ id: string; team_id: string }> = await knexOf(orm)('services')
    .select('id', 'team_id')
    .where({ organization_id: organizationId })
    .whereIn('id', serviceIds);
  return new Map(rows.map((r) => [r.id, r.team_id]));
}

/** The owning teams of services a new window names; a 400 naming `service_ids` for any not of this workspace. */
export async function teamsOfNamedServices(orm: MikroORM, organizationId: string, serviceIds: string[]): Promise<string[]> {
  const teams = await teamsOfServices(orm, organizationId, serviceIds);
  const missing = serviceIds.find((id) => !teams.has(id));
  if (missing) throw invalid(`service_ids: service ${missing} is not a service of this workspace`);
  return [...new Set(teams.values())];
}

export interface NewWindow {
  organizationId: string;
  serviceIds: string[];
  startsAt: Date;
  endsAt: Date;
  reason: string;
}

/** Writes a window whose services the caller checked, with its audit entry, in one transaction. */
export async function createWindow(orm: MikroORM, input: NewWindow, actor: AuditActor, now = new Date()): Promise<MaintenanceWindowJson> {
  const problem = windowSpanProblem(input, now);
  if (problem) throw invalid(`${problem.field}: ${problem.message}`);
  return knexOf(orm).transaction(async (trx) => {
    const open = await trx('maintenance_windows').where({ organization_id: input.organizationId }).andWhere('ends_at', '>', now).count({ n: '*' }).first();
    if (Number(open?.n ?? 0) >= MAX_OPEN_WINDOWS)
      throw conflict(`this workspace already has ${MAX_OPEN_WINDOWS} windows not yet ended: end or delete some first`, 'too_many_windows');
    const row: WindowRow = {
      id: randomUUID(),
      organization_id: input.organizationId,
      service_ids: [...new Set(input.serviceIds)],
      starts_at: input.startsAt,
      ends_at: input.endsAt,
      reason: input.reason,
      ended_early_at: null,
      created_by: actor.kind === 'user' ? actor.userId : null,
      created_at: now,
    };
    await trx('maintenance_windows').insert(row);
    await recordAudit(trx, {
      organizationId: input.organizationId,
      actor,
      action: 'maintenance_window.create',
      targetType: 'maintenance_window',
      targetId: row.id,
      details: { service_ids: row.service_ids, starts_at: iso(row.starts_at), ends_at: iso(row.ends_at), reason: row.reason },
    });
    return windowJson(row, now);
  });
}

/** The workspace's windows, soonest ending last; optionally of one service, or in one state. */
export async function listWindows(
  orm: MikroORM,
  q: { organizationId: string; serviceId?: string; state?: MaintenanceState; limit: number },
  now = new Date(),
): Promise<MaintenanceWindowJson[]> {
  const query = knexOf(orm)('maintenance_windows').select('*').where({ organization_id: q.organizationId });
  if (q.serviceId) query.whereRaw('service_ids @> array[?]::uuid[]', [q.serviceId]);
  if (q.state === 'scheduled') query.where('starts_at', '>', now);
  if (q.state === 'active') query.where('starts_at', '<=', now).andWhere('ends_at', '>', now);
  if (q.state === 'ended') query.where('ends_at', '<=', now);
  const rows: WindowRow[] = await query.orderBy([{ column: 'starts_at', order: 'desc' }, { column: 'id' }]).limit(q.limit);
  return rows.map((r) => windowJson(r, now));
}

/** One window of the workspace (404 otherwise). */
export async function getWindow(orm: MikroORM, organizationId: string, id: string): Promise<WindowRow> {
  const row: WindowRow | undefined = await knexOf(orm)('maintenance_windows').where({ organization_id: organizationId, id }).first();
  if (!row) throw notFound(`no maintenance window ${id} in this workspace`);
  return row;
}

/** Ends an active window now (409 when it is not active: a scheduled one is deleted instead). */
export async function endWindow(
  orm: MikroORM,
  input: { organizationId: string; id: string },
  actor: AuditActor,
  now = new Date(),
): Promise<MaintenanceWindowJson> {
  return knexOf(orm).transaction(async (trx) => {
    const row = await lockedWindow(trx, input);
    const state = maintenanceState({ startsAt: new Date(row.starts_at), endsAt: new Date(row.ends_at) }, now);
    if (state !== 'active')
      throw conflict(`maintenance window ${row.id} is ${state}: only an active window ends early (delete a scheduled one)`, 'window_not_active');
    const [ended]: WindowRow[] = await trx('maintenance_windows').where({ id: row.id }).update({ ends_at: now, ended_early_at: now }).returning('*');
    await recordAudit(trx, {
      organizationId: input.organizationId,
      actor,
      action: 'maintenance_window.end',
      targetType: 'maintenance_window',
      targetId: row.id,
      details: { service_ids: row.service_ids, planned_ends_at: iso(row.ends_at) },
    });
    return windowJson(ended, now);
  });
}

/** Deletes a window, whatever its state; answers what it was. */
export async function deleteWindow(
  orm: MikroORM,
  input: { organizationId: string; id: string },
  actor: AuditActor,
  now = new Date(),
): Promise<MaintenanceWindowJson> {
  return knexOf(orm).transaction(async (trx) => {
    const row = await lockedWindow(trx, input);
    await trx('maintenance_windows').where({ id: row.id }).delete();
    await recordAudit(trx, {
      organizationId: input.organizationId,
      actor,
      action: 'maintenance_window.delete',
      targetType: 'maintenance_window',
      targetId: row.id,
      details: { service_ids: row.service_ids, reason: row.reason },
    });
    return windowJson(row, now);
  });
}

async function lockedWindow(trx: Knex, input: { organizationId: string; id: string }): Promise<WindowRow> {
  const row: WindowRow | undefined = await trx('maintenance_windows').where({ organization_id: input.organizationId, id: input.id }).forUpdate().first();
  if (!row) throw notFound(`no maintenance window ${input.id} in this workspace`);
  return row;
}
