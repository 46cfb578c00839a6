import { randomUUID } from 'node:crypto';
import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import type { Role } from '../../domain/roles';
import { knexOf } from '../../db/knex';
import { iso } from '../../db/timestamps';
import { recordAudit, type AuditActor } from '../audit';
import { conflict, notFound } from '../errors';
import { refuseWhileTargeted } from '../paging/escalation-policies';

/** Teams of a workspace as its administrators manage them (members: team-members.ts). */

export interface TeamActor {
  organizationId: string;
  audit: AuditActor;
}

export interface TeamSummary {
  id: string;
  name: string;
  member_count: number;
  service_count: number;
  created_at: string;
}

const countsOf = (db: Knex, table: 'team_members' | 'services', alias: string) => db(table).count('*').whereRaw(`${table}.team_id = t.id`).as(alias);

/** The team if it is this workspace's; another workspace's team is simply not found (404). */
export async function teamOf(db: Knex, organizationId: string, teamId: string): Promise<{ id: string; name: string; created_at: string }> {
  const row = await db('teams').select('id', 'name', 'created_at').where({ id: teamId, organization_id: organizationId }).first();
  if (!row) throw notFound(`team ${teamId} not found`);
  return { id: row.id, name: row.name, created_at: iso(row.created_at) };
}

/** The workspace's teams by name, with how many members and services each has. */
export async function listTeams(orm: MikroORM, organizationId: string): Promise<TeamSummary[]> {
  const db = knexOf(orm);
  const rows = await db('teams as t')
    .select('t.id', 't.name', 't.created_at', countsOf(db, 'team_members', 'member_count'), countsOf(db, 'services', 'service_count'))
    .where({ 't.organization_id': organizationId })
    .orderBy([{ column: 't.name' }, { column: 't.id' }]);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    member_count: Number(r.member_count),
    service_count: Number(r.service_count),
    created_at: iso(r.created_at),
  }));
}

/** A team with its members (as members of the workspace) and the services it owns. */
export async function getTeam(orm: MikroORM, organizationId: string, teamId: string) {
  const db = knexOf(orm);
  const team = await teamOf(db, organizationId, teamId);
  const [members, services] = await Promise.all([
    db('team_members as tm')
      .join('users as u', 'u.id', 'tm.user_id')
      .join('memberships as m', function () {
        this.on('m.user_id', 'tm.user_id').andOnVal('m.organization_id', organizationId);
      })
      .select('u.id', 'u.email', 'u.name', 'm.role', 'tm.created_at')
      .where({ 'tm.team_id': teamId })
      .orderBy([{ column: 'tm.created_at' }, { column: 'u.id' }]),
    db('services')
      .select('id', 'name')
      .where({ team_id: teamId, organization_id: organizationId })
      .orderBy([{ column: 'name' }, { column: 'id' }]),
  ]);
  return {
    ...team,
    members: members.map((r) => ({
      id: r.id as string,
      email: r.email as string,
      name: (r.name as string | null) ?? null,
      role: r.role as Role,
      added_at: iso(r.created_at),
    })),
    services: services.map((r) => ({ id: r.id as string, name: r.name as string })),
  };
}
export type TeamDetail = Awaited<ReturnType<typeof getTeam>>;

export async function createTeamFor(orm: MikroORM, actor: TeamActor, name: string) {
  return knexOf(orm).transaction((trx) => insertTeam(trx, actor, name));
}

/** Writes a new team and its audit entry in the caller's transaction. */
export async function insertTeam(trx: Knex, actor: TeamActor, name: string): Promise<TeamSummary> {
  const row = { id: randomUUID(), organization_id: actor.organizationId, name, created_at: new Date() };
  await trx('teams').insert(row);
  await recordAudit(trx, {
    organizationId: actor.organizationId,
    actor: actor.audit,
    action: 'team.create',
    targetType: 'team',
    targetId: row.id,
    details: { name },
  });
  return { id: row.id, name, member_count: 0, service_count: 0, created_at: iso(row.created_at) };
}

export async function renameTeam(orm: MikroORM, actor: TeamActor, teamId: string, name: string) {
  await knexOf(orm).transaction((trx) => renameTeamIn(trx, actor, teamId, name));
  return getTeam(orm, actor.organizationId, teamId);
}

/** Renames a team (with its audit entry) in the caller's transaction; the same name changes nothing. */
export async function renameTeamIn(trx: Knex, actor: TeamActor, teamId: string, name: string): Promise<void> {
  const team = await teamOf(trx, actor.organizationId, teamId);
  if (team.name === name) return;
  await trx('teams').update({ name }).where({ id: teamId });
  await recordAudit(trx, {
    organizationId: actor.organizationId,
    actor: actor.audit,
    action: 'team.update',
    targetType: 'team',
    targetId: teamId,
    details: { from: team.name, to: name },
  });
}

/**
 * Deletes a team and its member list. A team that owns services is refused (409
 * `team_has_services`): every service needs an owning team, so move or delete them first. A
 * team an escalation step targets is refused too (409 `team_in_use`, naming the policies):
 * deleting it would leave that step paging nobody.
 */
export async function deleteTeam(orm: MikroORM, actor: TeamActor, teamId: string) {
  return knexOf(orm).transaction(async (trx) => {
    const team = await trx('teams').select('id', 'name').where({ id: teamId, organization_id: actor.organizationId }).forUpdate().first();
    if (!team) throw notFound(`team ${teamId} not found`);
    const [{ n }] = await trx('services').count({ n: '*' }).where({ team_id: teamId });
    if (Number(n) > 0)
      throw conflict(`team ${team.name as string} owns ${n} service(s): give them another owning team or delete them first`, 'team_has_services');
    await refuseWhileTargeted(trx, actor.organizationId, { type: 'team', id: teamId, name: team.name as string });
    await trx('team_members').delete().where({ team_id: teamId });
    await trx('teams').delete().where({ id: teamId });
    await recordAudit(trx, {
      organizationId: actor.organizationId,
      actor: actor.audit,
      action: 'team.delete',
      targetType: 'team',
      targetId: teamId,
      details: { name: team.name },
    });
    return { id: teamId, name: team.name as string, deleted: true };
  });
}
