import type { MikroORM } from '@mikro-orm/postgresql';
import { isUuid } from '../../domain/ids';
import { parseWith, uuidField } from '../../domain/paging/config';
import { knexOf } from '../../db/knex';
import { invalid, notFound } from '../errors';
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
 * The team's members in the order they joined. Someone who has since left the workspace is
 * not paged through the team, so only current members of the team's workspace count.
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
    .orderBy([{ column: 'tm.created_at' }, { column: 'tm.user_id' }]);
  return rows.map((r) => r.user_id as string);
}
