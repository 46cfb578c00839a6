import type { Knex } from '@mikro-orm/postgresql';
import { isUuid } from '../../domain/ids';
import { NEVER_PAGED_ROLE } from '../../domain/roles';
import { currentLayers, ScheduleInputError, type Layer, type StoredLayer } from '../../domain/schedule';
import { invalid, notFound } from '../errors';

/** What the schedule services share: the row, its lookup, and member references (not exported by the package index). */

export interface ScheduleRow {
  id: string;
  organization_id: string;
  name: string;
  time_zone: string;
  layers: Layer[];
}

/** A row as read: layers written before weekly windows are shown in today's shape (old `{from, to}` windows as daily ones). */
export const currentRow = (raw: Omit<ScheduleRow, 'layers'> & { layers: StoredLayer[] }): ScheduleRow => ({ ...raw, layers: currentLayers(raw.layers) });

/** Runs a domain step, reporting its input errors as `invalid`. */
export function validated<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof ScheduleInputError) throw invalid(err.message);
    throw err;
  }
}

/** A member a schedule may name: their id, or why not (a Stakeholder is never on call: docs/importers.md, "Roles"). */
export type ScheduleMemberRef = { id: string; stakeholder: boolean };

/** Members of the workspace matching emails or ids, keyed by both (emails lower-cased). */
export async function membersByRef(knex: Knex, organizationId: string, refs: string[]): Promise<Map<string, ScheduleMemberRef>> {
  const emails = refs.filter((r) => !isUuid(r)).map((r) => r.toLowerCase());
  const ids = refs.filter(isUuid).map((r) => r.toLowerCase());
  const rows: Array<{ id: string; email: string; role: string }> = await knex('users as u')
    .join('memberships as m', 'm.user_id', 'u.id')
    .select('u.id', 'u.email', 'm.role')
    .where('m.organization_id', organizationId)
    .andWhere((q) => void q.whereIn('u.email', emails).orWhereIn('u.id', ids));
  return new Map(
    rows.flatMap((r) => {
      const ref = { id: r.id, stakeholder: r.role === NEVER_PAGED_ROLE };
      return [
        [r.email, ref],
        [r.id, ref],
      ] as Array<[string, ScheduleMemberRef]>;
    }),
  );
}

/** The id of a member a schedule may put on call, or a 400 naming `field`: not a member, or a Stakeholder. */
export function onCallMemberId(members: Map<string, ScheduleMemberRef>, ref: string, field: string, where = "this schedule's workspace"): string {
  const member = members.get(ref.toLowerCase());
  if (!member) throw invalid(`${field}: ${ref} is not a member of ${where}`);
  if (member.stakeholder) throw invalid(`${field}: ${ref} is a Stakeholder, who reads but is never on call or paged`);
  return member.id;
}

/** A schedule by id; with `organizationId`, another workspace's is not found. */
export async function getSchedule(knex: Knex, id: string, organizationId?: string): Promise<ScheduleRow> {
  if (!isUuid(id)) throw invalid('schedule id must be a UUID');
  const row = await knex('schedules')
    .select('id', 'organization_id', 'name', 'time_zone', 'layers')
    .where({ id, ...(organizationId ? { organization_id: organizationId } : {}) })
    .first();
  if (!row) throw notFound(`schedule ${id} not found`);
  return currentRow(row);
}

export const validDate = (d: Date) => d instanceof Date && !Number.isNaN(d.getTime());
