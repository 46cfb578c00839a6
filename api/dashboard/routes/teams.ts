import { z } from 'zod';
import { ROLES } from '../../../src/domain/roles';
import { knexOf } from '../../../src/db/knex';
import { addToTeam, createTeamFor, deleteTeam, getTeam, listTeams, removeFromTeam, renameTeam, teamOf } from '../../../src/services/workspace';
import { defineRoute, type RouteSpec } from '../../http/route-spec';
import { ADMIN_ERRORS, adminActorOf, auditActorOf, authorize, IdParams, type AdminActor, type AdminDeps, authorizedActor } from '../admin-kit';

const TeamBody = z.object({ name: z.string().trim().min(1, 'must not be empty').max(255) }).strict();
const MemberBody = z.object({ user_id: z.uuid('must be a UUID') }).strict();
const TeamMemberParams = z.object({ id: z.uuid('must be a UUID'), user_id: z.uuid('must be a UUID') });

const TeamSummarySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  member_count: z.number().int(),
  service_count: z.number().int(),
  created_at: z.iso.datetime(),
});
const TeamDetailSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  created_at: z.iso.datetime(),
  members: z.array(z.object({ id: z.uuid(), email: z.string(), name: z.string().nullable(), role: z.enum(ROLES), added_at: z.iso.datetime() })),
  services: z.array(z.object({ id: z.uuid(), name: z.string() })).describe('the services this team owns'),
});
const NOT_FOUND = { 404: 'no such team in this workspace (another workspace’s team is not found either)' } as const;

const teamActor = (a: AdminActor) => ({ organizationId: a.organizationId, audit: auditActorOf(a) });

/** Teams and their members under /api (session). */
export function teamsRoutes(deps: AdminDeps): RouteSpec[] {
  /** Team-member routes: the team must be this workspace's (404), then a Team Manager may act on a team they are in. */
  const authorizeTeamMembers = async (actor: AdminActor, teamId: string) => {
    await teamOf(knexOf(deps.orm), actor.organizationId, teamId);
    await authorize(deps.orm, actor, 'team.members.manage', teamId);
  };
  return [
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/teams',
      operationId: 'listTeams',
      summary: 'List the workspace’s teams with member and service counts (any member)',
      success: { status: 200, description: 'every team, by name', schema: z.array(TeamSummarySchema) },
      errors: ADMIN_ERRORS,
      handler: async (ctx) => {
        const actor = await authorizedActor(deps.orm, ctx, 'workspace.read');
        const teams = await listTeams(deps.orm, actor.organizationId);
        return { data: teams, message: `${teams.length} team(s)` };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/teams',
      operationId: 'createTeam',
      summary: 'Create a team (Billing Owner, Account Admin)',
      body: TeamBody,
      success: { status: 201, description: 'the new team, with no members yet', schema: TeamSummarySchema },
      errors: ADMIN_ERRORS,
      handler: async (ctx, { body }) => {
        const actor = await authorizedActor(deps.orm, ctx, 'teams.manage');
        const team = await createTeamFor(deps.orm, teamActor(actor), body.name);
        return { data: team, message: `team ${team.name} created` };
      },
    }),
    defineRoute({
      method: 'get',
      access: 'read',
      path: '/teams/{id}',
      operationId: 'getTeam',
      summary: 'A team with its members and the services it owns (any member)',
      params: IdParams,
      success: { status: 200, description: 'the team', schema: TeamDetailSchema },
      errors: { ...ADMIN_ERRORS, ...NOT_FOUND },
      handler: async (ctx, { params }) => {
        const actor = await authorizedActor(deps.orm, ctx, 'workspace.read');
        const team = await getTeam(deps.orm, actor.organizationId, params.id);
        return { data: team, message: `team ${team.name}: ${team.members.length} member(s), ${team.services.length} service(s)` };
      },
    }),
    defineRoute({
      method: 'put',
      access: 'write',
      path: '/teams/{id}',
      operationId: 'renameTeam',
      summary: 'Rename a team (Billing Owner, Account Admin)',
      params: IdParams,
      body: TeamBody,
      success: { status: 200, description: 'the team as renamed', schema: TeamDetailSchema },
      errors: { ...ADMIN_ERRORS, ...NOT_FOUND },
      handler: async (ctx, { params, body }) => {
        const actor = await authorizedActor(deps.orm, ctx, 'teams.manage');
        const team = await renameTeam(deps.orm, teamActor(actor), params.id, body.name);
        return { data: team, message: `team is now called ${team.name}` };
      },
    }),
    defineRoute({
      method: 'delete',
      access: 'write',
      path: '/teams/{id}',
      operationId: 'deleteTeam',
      summary: 'Delete a team that owns no services (Billing Owner, Account Admin)',
      params: IdParams,
      success: {
        status: 200,
        description: 'deleted, with its member list (the members stay in the workspace)',
        schema: z.object({ id: z.uuid(), name: z.string(), deleted: z.literal(true) }),
      },
      errors: {
        ...ADMIN_ERRORS,
        ...NOT_FOUND,
        409: 'team_has_services: give its services another owning team (or delete them) first; team_in_use: an escalation policy targets it (the policies are named)',
      },
      handler: async (ctx, { params }) => {
        const actor = await authorizedActor(deps.orm, ctx, 'teams.manage');
        const deleted = await deleteTeam(deps.orm, teamActor(actor), params.id);
        return { data: deleted, message: `team ${deleted.name} deleted` };
      },
    }),
    defineRoute({
      method: 'post',
      access: 'write',
      path: '/teams/{id}/members',
      operationId: 'addTeamMember',
      summary: 'Put a member of the workspace in a team (Billing Owner, Account Admin, or a Team Manager in that team)',
      params: IdParams,
      body: MemberBody,
      success: {
        status: 200,
        description: 'the user is in the team (adding them again changes nothing)',
        schema: z.object({ team_id: z.uuid(), user_id: z.uuid(), email: z.string(), added: z.boolean() }),
      },
      errors: { ...ADMIN_ERRORS, 400: 'user_id: not a member of this workspace; or another invalid field', ...NOT_FOUND },
      handler: async (ctx, { params, body }) => {
        const actor = adminActorOf(ctx);
        await authorizeTeamMembers(actor, params.id);
        const added = await addToTeam(deps.orm, teamActor(actor), params.id, body.user_id);
        return { data: added, message: added.added ? `${added.email} added to the team` : `${added.email} already is in the team` };
      },
    }),
    defineRoute({
      method: 'delete',
      access: 'write',
      path: '/teams/{id}/members/{user_id}',
      operationId: 'removeTeamMember',
      summary: 'Take a user out of a team (Billing Owner, Account Admin, or a Team Manager in that team)',
      params: TeamMemberParams,
      success: {
        status: 200,
        description: 'the user left the team (not the workspace)',
        schema: z.object({ team_id: z.uuid(), user_id: z.uuid(), removed: z.literal(true) }),
      },
      errors: { ...ADMIN_ERRORS, 404: 'no such team in this workspace, or the user is not in it' },
      handler: async (ctx, { params }) => {
        const actor = adminActorOf(ctx);
        await authorizeTeamMembers(actor, params.id);
        const removed = await removeFromTeam(deps.orm, teamActor(actor), params.id, params.user_id);
        return { data: removed, message: 'removed from the team' };
      },
    }),
  ];
}
