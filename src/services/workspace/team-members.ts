import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { isUuid } from '../../domain/ids';
import { parseWith, uuidField } from '../../domain/paging/config';
import { NEVER_PAGED_ROLE } from '../../domain/roles';
import { knexOf } from '../../db/knex';
import { recordAudit, type AuditActor } from '../audit';
import { invalid, notFound } from '../errors';
import { teamOf } from './teams';
import { findMember } from './workspaces';

/** Team members: who is paged when an escalation step targets a team. */

async function teamWorkspace(orm: MikroORM, teamId: string): Promise<{ id: string; organizationId: string }> {
  const id = parseWith(uuidField('a team id'), teamId);
  if (!id.ok) throw invalid(`team: ${id.message}`);
  const team = await knexOf(orm)('teams').select('id', 'organization_id').where({ id: id.value }).first();
  if (!team) throw notFound(`team ${id.value} not found`);
  return { id: team.id, organizationId: team.organization_id };
}

/** Adds a member of the team's workspace to the team; adding them again changes nothing. */
export async function addTeamMember(orm: MikroORM, input: { teamId: string; email: string }) {
  const team = await teamWorkspace(orm, input.teamId);
  const user = await findMember(orm, team.organizationId, input.email);
  await knexOf(orm)('team_members').insert({ team_id: team.id, user_id: user.id, created_at: new Date() }).onConflict(['team_id', 'user_id']).ignore();
  return { team_id: team.id, user_id: user.id, email: user.email };
}

/**
 * The team's members paged through it, in the order they joined. Someone who has since left the
 * workspace is not paged through the team, so only current members of the team's workspace
 * count; nor is a Stakeholder, who may be in a team to read its incidents but is never paged.
 */
export async function teamMemberIds(orm: MikroORM, teamId: string): Promise<string[]> {
  if (!isUuid(teamId)) return [];
  const rows = await knexOf(orm)('team_members as tm')
    .join('teams as t', 't.id', 'tm.team_id')
    .join('memberships as m', function () {
      this.on('m.user_id', '=', 'tm.user_id').andOn('m.organization_id', '=', 't.organization_id');
    })
    .select('tm.user_id')
    .where({ 'tm.team_id': teamId })
    .whereNot('m.role', NEVER_PAGED_ROLE)
    .orderBy([{ column: 'tm.created_at' }, { column: 'tm.user_id' }]);
  return rows.map((r) => r.user_id as string);
}

/** Who manages a team's members from the dashboard. */
export interface TeamMemberActor {
  organizationId: string;
  audit: AuditActor;
}

/**
 * Puts a member of the workspace in one of its teams (400 naming `user_id` when the user is not
 * a member of the workspace); adding someone already in the team changes nothing.
 */
export async function addToTeam(orm: MikroORM, actor: TeamMemberActor, teamId: string, userId: string) {
  return knexOf(orm).transaction((trx) => insertTeamMember(trx, actor, teamId, userId));
}

/** addToTeam in the caller's transaction. */
export async function insertTeamMember(trx: Knex, actor: TeamMemberActor, teamId: string, userId: string) {
  const team = await teamOf(trx, actor.organizationId, teamId);
  const member = await trx('memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .select('u.id', 'u.email')
    .where({ 'm.organization_id': actor.organizationId, 'm.user_id': userId })
    .first();
  if (!member) throw invalid(`user_id: user ${userId} is not a member of this workspace`);
  const added = (await trx('team_members')
    .insert({ team_id: teamId, user_id: userId, created_at: new Date() })
    .onConflict(['team_id', 'user_id'])
    .ignore()
    .returning(['user_id'])) as unknown[];
  if (added.length > 0) {
    await recordAudit(trx, {
      organizationId: actor.organizationId,
      actor: actor.audit,
      action: 'team.member_add',
      targetType: 'team',
      targetId: teamId,
      details: { team: team.name, user_id: userId, email: member.email },
    });
  }
  return { team_id: teamId, user_id: userId, email: member.email as string, added: added.length > 0 };
}

/** Takes a user out of a team (404 when they are not in it); their workspace membership stays. */
export async function removeFromTeam(orm: MikroORM, actor: TeamMemberActor, teamId: string, userId: string) {
  return knexOf(orm).transaction((trx) => removeFromTeamIn(trx, actor, teamId, userId));
}

/** removeFromTeam in the caller's transaction. */
export async function removeFromTeamIn(trx: Knex, actor: TeamMemberActor, teamId: string, userId: string) {
  const team = await teamOf(trx, actor.organizationId, teamId);
  const user = await trx('users').select('email').where({ id: userId }).first();
  const n = await trx('team_members').delete().where({ team_id: teamId, user_id: userId });
  if (n === 0) throw notFound(`user ${userId} is not in team ${team.name}`);
  await recordAudit(trx, {
    organizationId: actor.organizationId,
    actor: actor.audit,
    action: 'team.member_remove',
    targetType: 'team',
    targetId: teamId,
    details: { team: team.name, user_id: userId, email: user?.email ?? null },
  });
  return { team_id: teamId, user_id: userId, removed: true };
}
