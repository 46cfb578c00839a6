import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { isUuid } from '../../domain/ids';
import { knexOf } from '../../db/knex';
import { iso, millis } from '../../db/timestamps';
import { DomainError } from '../errors';
import { insertTeamMember, removeFromTeamIn } from '../workspace/team-members';
import { deleteTeam, insertTeam, renameTeamIn } from '../workspace/teams';
import { SCIM_ACTOR, type Page } from './actor';
import { ScimError, invalidValue } from './errors';
import type { FilterAttribute } from './filter';
import { scimPageOf } from './page-query';
import { applyGroupPatch, type GroupState } from './patch-group';
import type { ScimGroupRecord } from './resources';
import type { GroupBody, PatchOperation } from './schemas';

/** SCIM Groups of one workspace: its teams, through the team services (which audit every change). */

/** Only current members of the workspace count as a team's members, as paging sees it. */
const CURRENT_MEMBER_OF_TEAM =
  'exists (select 1 from team_members tm2 join memberships m2 on m2.user_id = tm2.user_id and m2.organization_id = t.organization_id where tm2.team_id = t.id and tm2.user_id = ?::uuid)';

const GROUP_FILTER: Record<string, FilterAttribute> = {
  id: { type: 'id', column: 't.id' },
  displayname: { type: 'string', column: 't.name', caseExact: false },
  externalid: { type: 'string', column: 'g.external_id', caseExact: true },
  'members.value': { type: 'contains_id', sql: CURRENT_MEMBER_OF_TEAM },
};

const TEAM_ACTOR = (organizationId: string) => ({ organizationId, audit: SCIM_ACTOR });

const groupRows = (db: Knex, organizationId: string) =>
  db('teams as t')
    .leftJoin('scim_groups as g', function () {
      this.on('g.team_id', 't.id').andOnVal('g.organization_id', organizationId);
    })
    .where({ 't.organization_id': organizationId });

const GROUP_COLUMNS = ['t.id', 't.name', 't.created_at', 'g.external_id', 'g.updated_at'];

/** Each team's current members, by when they joined it. */
async function membersOf(db: Knex, organizationId: string, teamIds: string[]): Promise<Map<string, Array<{ id: string; email: string }>>> {
  const byTeam = new Map<string, Array<{ id: string; email: string }>>(teamIds.map((id) => [id, []]));
  if (teamIds.length === 0) return byTeam;
  const rows = await db('team_members as tm')
    .join('memberships as m', function () {
      this.on('m.user_id', 'tm.user_id').andOnVal('m.organization_id', organizationId);
    })
    .join('users as u', 'u.id', 'tm.user_id')
    .select('tm.team_id', 'u.id', 'u.email')
    .whereIn('tm.team_id', teamIds)
    .orderBy([{ column: 'tm.created_at' }, { column: 'u.id' }]);
  for (const r of rows) byTeam.get(r.team_id as string)?.push({ id: r.id as string, email: r.email as string });
  return byTeam;
}

const recordOf = (r: Record<string, unknown>, members: Array<{ id: string; email: string }>): ScimGroupRecord => ({
  id: r.id as string,
  name: r.name as string,
  externalId: (r.external_id as string | null) ?? null,
  members,
  created: iso(r.created_at as Date | string),
  lastModified: iso(new Date(Math.max(millis(r.created_at as Date | string), r.updated_at ? millis(r.updated_at as Date | string) : 0))),
});

async function readGroup(db: Knex, organizationId: string, teamId: string): Promise<ScimGroupRecord> {
  if (!isUuid(teamId)) throw new ScimError(404, `Group ${teamId} not found`);
  const row = await groupRows(db, organizationId).select(GROUP_COLUMNS).where({ 't.id': teamId }).first();
  if (!row) throw new ScimError(404, `Group ${teamId} not found`);
  return recordOf(row, (await membersOf(db, organizationId, [teamId])).get(teamId) ?? []);
}

export const getScimGroup = (orm: MikroORM, organizationId: string, teamId: string) => readGroup(knexOf(orm), organizationId, teamId);

/** A page of the workspace's teams by name, narrowed by a SCIM filter. */
export async function listScimGroups(orm: MikroORM, organizationId: string, page: Page): Promise<{ groups: ScimGroupRecord[]; total: number }> {
  const db = knexOf(orm);
  const { rows, total: n } = await scimPageOf<Record<string, unknown>>(() => groupRows(db, organizationId), page, {
    filter: GROUP_FILTER,
    columns: GROUP_COLUMNS,
    order: [{ column: 't.name' }, { column: 't.id' }],
  });
  const members = await membersOf(
    db,
    organizationId,
    rows.map((r) => r.id as string),
  );
  return { groups: rows.map((r) => recordOf(r, members.get(r.id as string) ?? [])), total: Number(n) };
}

/** A member id that is not a member of the workspace is 400 naming it; nothing is changed. */
async function addMembers(trx: Knex, organizationId: string, teamId: string, userIds: string[]): Promise<void> {
  for (const userId of userIds) {
    try {
      await insertTeamMember(trx, TEAM_ACTOR(organizationId), teamId, userId);
    } catch (err) {
      if (err instanceof DomainError && err.kind === 'invalid') throw invalidValue(`members: ${userId} is not a member of this workspace`);
      throw err;
    }
  }
}

async function saveScimGroup(trx: Knex, organizationId: string, teamId: string, externalId: string | null): Promise<void> {
  const now = new Date();
  await trx('scim_groups')
    .insert({ organization_id: organizationId, team_id: teamId, external_id: externalId, created_at: now, updated_at: now })
    .onConflict(['organization_id', 'team_id'])
    .merge(['external_id', 'updated_at']);
}

const uniqueIds = (body: GroupBody) => [...new Set((body.members ?? []).map((m) => m.value.toLowerCase()))];

function checkIds(ids: string[]): void {
  const bad = ids.find((id) => !isUuid(id));
  if (bad !== undefined) throw invalidValue(`members: ${JSON.stringify(bad)} is not a Klaxon user id`);
}

/** POST: a new team with its members. */
export async function createScimGroup(orm: MikroORM, organizationId: string, body: GroupBody): Promise<ScimGroupRecord> {
  const ids = uniqueIds(body);
  checkIds(ids);
  const teamId = await knexOf(orm).transaction(async (trx) => {
    const team = await insertTeam(trx, TEAM_ACTOR(organizationId), body.displayName);
    await addMembers(trx, organizationId, team.id, ids);
    await saveScimGroup(trx, organizationId, team.id, body.externalId ?? null);
    return team.id;
  });
  return getScimGroup(orm, organizationId, teamId);
}

/** Moves a team from `before` to `after` in the caller's transaction. */
async function applyGroupState(trx: Knex, organizationId: string, teamId: string, before: GroupState, after: GroupState): Promise<void> {
  checkIds(after.memberIds);
  if (after.displayName !== before.displayName) await renameTeamIn(trx, TEAM_ACTOR(organizationId), teamId, after.displayName);
  const had = new Set(before.memberIds);
  const keeps = new Set(after.memberIds);
  await addMembers(
    trx,
    organizationId,
    teamId,
    after.memberIds.filter((id) => !had.has(id)),
  );
  for (const id of before.memberIds.filter((i) => !keeps.has(i))) await removeFromTeamIn(trx, TEAM_ACTOR(organizationId), teamId, id);
  await saveScimGroup(trx, organizationId, teamId, after.externalId);
}

async function lockedGroup(trx: Knex, organizationId: string, teamId: string): Promise<GroupState> {
  if (isUuid(teamId)) await trx('teams').select('id').where({ id: teamId, organization_id: organizationId }).forUpdate();
  const g = await readGroup(trx, organizationId, teamId);
  return { displayName: g.name, externalId: g.externalId, memberIds: g.members.map((m) => m.id) };
}

/** PUT: name, externalId and members become the body's. */
export async function replaceScimGroup(orm: MikroORM, organizationId: string, teamId: string, body: GroupBody): Promise<ScimGroupRecord> {
  await knexOf(orm).transaction(async (trx) => {
    const before = await lockedGroup(trx, organizationId, teamId);
    await applyGroupState(trx, organizationId, teamId, before, {
      displayName: body.displayName,
      externalId: body.externalId ?? null,
      memberIds: uniqueIds(body),
    });
  });
  return getScimGroup(orm, organizationId, teamId);
}

/** PATCH: the operations apply in order, all or none. */
export async function patchScimGroup(orm: MikroORM, organizationId: string, teamId: string, operations: PatchOperation[]): Promise<ScimGroupRecord> {
  await knexOf(orm).transaction(async (trx) => {
    const before = await lockedGroup(trx, organizationId, teamId);
    await applyGroupState(trx, organizationId, teamId, before, applyGroupPatch(before, operations));
  });
  return getScimGroup(orm, organizationId, teamId);
}

/** DELETE: the team goes as the dashboard deletes it (refused while it owns services or a policy targets it). */
export async function deleteScimGroup(orm: MikroORM, organizationId: string, teamId: string): Promise<void> {
  if (!isUuid(teamId)) throw new ScimError(404, `Group ${teamId} not found`);
  await deleteTeam(orm, TEAM_ACTOR(organizationId), teamId);
  await knexOf(orm)('scim_groups').delete().where({ organization_id: organizationId, team_id: teamId });
}
