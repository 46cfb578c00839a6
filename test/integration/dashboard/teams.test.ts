import { knexOf } from '../../../src/db/knex';
import type { Role } from '../../../src/domain/roles';
import { addTeamMember, createService, createTeam } from '../../../src/services/workspace';
import {
  ALL_ROLES,
  dashboardFixture,
  expectDashboardError,
  readyWorkspaceOf,
  signUpAndLogIn,
  workspaceWithRoles,
  type WorkingRole,
} from '../../support/dashboard';

const fx = dashboardFixture();
const { api } = fx;
const db = () => knexOf(fx.stack.orm);
const expectError = expectDashboardError;
const ROLES = ALL_ROLES;
const MANAGERS: Role[] = ['BILLING_OWNER', 'ACCOUNT_ADMIN'];
const teamRow = (id: string) => db()('teams').where({ id }).first();
const inTeam = async (teamId: string, userId: string) => Boolean(await db()('team_members').where({ team_id: teamId, user_id: userId }).first());
/** The names of a workspace's teams other than the one sign-up made, sorted. */
const teamNames = async (organizationId: string) => {
  const { teamId } = await readyWorkspaceOf(fx.stack.orm, organizationId);
  return (await db()('teams').where({ organization_id: organizationId }).whereNot({ id: teamId })).map((t) => t.name).sort();
};
const auditActions = async (session: { cookie: string; csrf: string }, action: string) => {
  const res = await api('GET', `/audit-log?action=${action}&limit=200`, { session });
  expect(res.status).toBe(200);
  return res.body.data as Array<{ target: { type: string; id: string }; details: Record<string, unknown> }>;
};

describe('reading teams', () => {
  it.each(ROLES)('when a %s lists teams and opens one, then they see counts, members and the services it owns', async (role) => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const team = await createTeam(fx.stack.orm, { organizationId: ws.organizationId, name: 'Payments' });
    await createTeam(fx.stack.orm, { organizationId: ws.organizationId, name: 'Edge' });
    await addTeamMember(fx.stack.orm, { teamId: team.id, email: ws.as.MEMBER.email });
    const service = await createService(fx.stack.orm, { organizationId: ws.organizationId, teamId: team.id, name: 'checkout' });

    const list = await api('GET', '/teams', { session: ws.as[role] });
    expect(list.status).toBe(200);
    // Sign-up's own team ("Acme …", the owner in it, Default service) sorts first.
    expect(list.body.data.map((t: any) => [t.name, t.member_count, t.service_count])).toEqual([
      [expect.stringMatching(/^Acme /), 1, 1],
      ['Edge', 0, 0],
      ['Payments', 1, 1],
    ]);

    const one = await api('GET', `/teams/${team.id}`, { session: ws.as[role] });
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual({
      id: team.id,
      name: 'Payments',
      created_at: expect.any(String),
      members: [{ id: ws.as.MEMBER.userId, email: ws.as.MEMBER.email, name: null, role: 'MEMBER', added_at: expect.any(String) }],
      services: [{ id: service.id, name: 'checkout' }],
    });
  });

  it('when a team of another workspace is asked for, then it is 404 on every team route and nothing changes', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const other = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    const theirs = await createTeam(fx.stack.orm, { organizationId: other.organizationId, name: 'Theirs' });
    expect((await api('GET', `/teams/${theirs.id}`, { session: ws.owner })).status).toBe(404);
    expect((await api('PUT', `/teams/${theirs.id}`, { session: ws.owner, body: { name: 'Mine now' } })).status).toBe(404);
    expect((await api('DELETE', `/teams/${theirs.id}`, { session: ws.owner })).status).toBe(404);
    expect((await api('POST', `/teams/${theirs.id}/members`, { session: ws.owner, body: { user_id: ws.as.MEMBER.userId } })).status).toBe(404);
    expect((await api('POST', `/teams/${theirs.id}/members`, { session: ws.as.TEAM_MANAGER, body: { user_id: ws.as.MEMBER.userId } })).status).toBe(404);
    expect((await api('DELETE', `/teams/${theirs.id}/members/${other.userId}`, { session: ws.owner })).status).toBe(404);
    expect(await teamRow(theirs.id)).toMatchObject({ name: 'Theirs' });
    expect(await db()('team_members').where({ team_id: theirs.id })).toHaveLength(0);
  });
});

describe('managing teams (Billing Owner, Account Admin)', () => {
  it.each(ROLES)('when a %s creates, renames and deletes a team, then only Billing Owners and Account Admins may', async (role) => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const existing = await createTeam(fx.stack.orm, { organizationId: ws.organizationId, name: 'Existing' });
    const created = await api('POST', '/teams', { session: ws.as[role], body: { name: 'Platform' } });
    const renamed = await api('PUT', `/teams/${existing.id}`, { session: ws.as[role], body: { name: 'Renamed' } });
    const deleted = await api('DELETE', `/teams/${existing.id}`, { session: ws.as[role] });
    const names = () => teamNames(ws.organizationId);
    if (MANAGERS.includes(role)) {
      expect(created.status).toBe(201);
      expect(created.body.data).toEqual({ id: expect.any(String), name: 'Platform', member_count: 0, service_count: 0, created_at: expect.any(String) });
      expect(renamed.status).toBe(200);
      expect(renamed.body.data.name).toBe('Renamed');
      expect(deleted.status).toBe(200);
      expect(await names()).toEqual(['Platform']);
    } else {
      for (const res of [created, renamed, deleted]) expectError(res, 403, 'forbidden');
      expect(await names()).toEqual(['Existing']);
    }
  });

  it('when teams are created, renamed and deleted, then each change is in the audit log', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const created = await api('POST', '/teams', { session: ws.owner, body: { name: '  Platform ' } });
    const id = created.body.data.id;
    expect(created.body.data.name).toBe('Platform');
    await api('PUT', `/teams/${id}`, { session: ws.as.ACCOUNT_ADMIN, body: { name: 'Infra' } });
    await api('DELETE', `/teams/${id}`, { session: ws.owner });
    // Newest first: then sign-up's own team, created by the owner.
    expect(await auditActions(ws.owner, 'team.create')).toEqual([
      expect.objectContaining({ target: { type: 'team', id }, details: { name: 'Platform' } }),
      expect.objectContaining({ actor: expect.objectContaining({ user_id: ws.owner.userId }), details: { name: expect.stringMatching(/^Acme /) } }),
    ]);
    expect(await auditActions(ws.owner, 'team.update')).toEqual([
      expect.objectContaining({ target: { type: 'team', id }, details: { from: 'Platform', to: 'Infra' } }),
    ]);
    expect(await auditActions(ws.owner, 'team.delete')).toEqual([expect.objectContaining({ target: { type: 'team', id }, details: { name: 'Infra' } })]);
  });

  it('when a team owns services, then deleting it is 409 team_has_services and it stays with its members', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const team = await createTeam(fx.stack.orm, { organizationId: ws.organizationId, name: 'Payments' });
    await addTeamMember(fx.stack.orm, { teamId: team.id, email: ws.as.MEMBER.email });
    await createService(fx.stack.orm, { organizationId: ws.organizationId, teamId: team.id, name: 'checkout' });
    expectError(await api('DELETE', `/teams/${team.id}`, { session: ws.owner }), 409, 'team_has_services');
    expect(await teamRow(team.id)).toBeDefined();
    expect(await inTeam(team.id, ws.as.MEMBER.userId)).toBe(true);
  });

  it('when an escalation step targets the team, then deleting it is 409 team_in_use naming the policies, and it can go once they no longer target it', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const team = await createTeam(fx.stack.orm, { organizationId: ws.organizationId, name: 'Database' });
    await addTeamMember(fx.stack.orm, { teamId: team.id, email: ws.as.MEMBER.email });
    const steps = [
      {
        delay_seconds: 60,
        targets: [
          { type: 'user', id: ws.owner.userId },
          { type: 'team', id: team.id },
        ],
      },
    ];
    const policies = [];
    for (const name of ['Storage', 'Checkout']) {
      const res = await api('POST', '/escalation-policies', { session: ws.owner, body: { name, steps } });
      expect(res.status).toBe(201);
      policies.push(res.body.data.id as string);
    }
    expectError(await api('DELETE', `/teams/${team.id}`, { session: ws.owner }), 409, 'team_in_use', /2 escalation policy\(ies\): Checkout, Storage/);
    expect(await teamRow(team.id)).toBeDefined();
    expect(await inTeam(team.id, ws.as.MEMBER.userId)).toBe(true);
    expect(await auditActions(ws.owner, 'team.delete')).toEqual([]);

    for (const id of policies) {
      const res = await api('PUT', `/escalation-policies/${id}`, {
        session: ws.owner,
        body: { steps: [{ delay_seconds: 60, targets: [{ type: 'user', id: ws.owner.userId }] }] },
      });
      expect(res.status).toBe(200);
    }
    expect((await api('DELETE', `/teams/${team.id}`, { session: ws.owner })).status).toBe(200);
    expect(await teamRow(team.id)).toBeUndefined();
  });

  it('when the body is bad (unknown field, wrong type, too long, empty), then it is 400 naming the field and nothing is written', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const team = await createTeam(fx.stack.orm, { organizationId: ws.organizationId, name: 'Keep' });
    for (const [body, field] of [
      [{ name: 'A', colour: 'red' }, 'colour'],
      [{ name: 5 }, 'name'],
      [{ name: 'x'.repeat(256) }, 'name'],
      [{ name: '   ' }, 'name'],
    ] as const) {
      for (const res of [await api('POST', '/teams', { session: ws.owner, body }), await api('PUT', `/teams/${team.id}`, { session: ws.owner, body })]) {
        expectError(res, 400, 'invalid_request');
        expect(res.body.error).toContain(field);
      }
    }
    expectError(await api('GET', '/teams/not-a-uuid', { session: ws.owner }), 400, 'invalid_request');
    expect(await teamNames(ws.organizationId)).toEqual(['Keep']);
  });

  it('when the request has no X-CSRF-Token, then it is 403 csrf_failed and nothing changes', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const team = await createTeam(fx.stack.orm, { organizationId: ws.organizationId, name: 'Keep' });
    const opts = { session: ws.owner, csrf: null };
    expectError(await api('POST', '/teams', { ...opts, body: { name: 'New' } }), 403, 'csrf_failed');
    expectError(await api('PUT', `/teams/${team.id}`, { ...opts, body: { name: 'New' } }), 403, 'csrf_failed');
    expectError(await api('DELETE', `/teams/${team.id}`, opts), 403, 'csrf_failed');
    expectError(await api('POST', `/teams/${team.id}/members`, { ...opts, body: { user_id: ws.as.MEMBER.userId } }), 403, 'csrf_failed');
    expect(await teamNames(ws.organizationId)).toEqual(['Keep']);
    expect(await db()('team_members').where({ team_id: team.id })).toHaveLength(0);
  });
});

describe('team members (Billing Owner, Account Admin, or a Team Manager in the team)', () => {
  const cases: Array<[string, WorkingRole, boolean, boolean]> = [
    ['a Billing Owner', 'BILLING_OWNER', false, true],
    ['an Account Admin', 'ACCOUNT_ADMIN', false, true],
    ['a Team Manager in the team', 'TEAM_MANAGER', true, true],
    ['a Team Manager not in the team', 'TEAM_MANAGER', false, false],
    ['a Member in the team', 'MEMBER', true, false],
  ];
  it.each(cases)('when %s adds and removes a member, then allowed is %s', async (_who, role, actorInTeam, allowed) => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const team = await createTeam(fx.stack.orm, { organizationId: ws.organizationId, name: 'Payments' });
    const actor = ws.as[role];
    if (actorInTeam) await addTeamMember(fx.stack.orm, { teamId: team.id, email: actor.email });
    const target = role === 'MEMBER' ? ws.as.TEAM_MANAGER : ws.as.MEMBER;
    const added = await api('POST', `/teams/${team.id}/members`, { session: actor, body: { user_id: target.userId } });
    if (allowed) {
      expect(added.status).toBe(200);
      expect(added.body.data).toEqual({ team_id: team.id, user_id: target.userId, email: target.email, added: true });
      expect(await inTeam(team.id, target.userId)).toBe(true);
      const removed = await api('DELETE', `/teams/${team.id}/members/${target.userId}`, { session: actor });
      expect(removed.status).toBe(200);
      expect(await inTeam(team.id, target.userId)).toBe(false);
    } else {
      expectError(added, 403, 'forbidden');
      expect(await inTeam(team.id, target.userId)).toBe(false);
      await addTeamMember(fx.stack.orm, { teamId: team.id, email: target.email });
      expectError(await api('DELETE', `/teams/${team.id}/members/${target.userId}`, { session: actor }), 403, 'forbidden');
      expect(await inTeam(team.id, target.userId)).toBe(true);
    }
  });

  it('when the user is not a member of the workspace, then adding them is 400 naming user_id; removing someone not in the team is 404', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const other = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    const team = await createTeam(fx.stack.orm, { organizationId: ws.organizationId, name: 'Payments' });
    const res = await api('POST', `/teams/${team.id}/members`, { session: ws.owner, body: { user_id: other.userId } });
    expectError(res, 400, 'invalid_request');
    expect(res.body.error).toContain('user_id');
    const bad = await api('POST', `/teams/${team.id}/members`, { session: ws.owner, body: { user_id: 'nope', extra: 1 } });
    expectError(bad, 400, 'invalid_request');
    expect(bad.body.error).toContain('user_id');
    expect(await db()('team_members').where({ team_id: team.id })).toHaveLength(0);
    expect((await api('DELETE', `/teams/${team.id}/members/${ws.as.MEMBER.userId}`, { session: ws.owner })).status).toBe(404);
  });

  it('when members are added and removed, then each change is audited once (adding someone twice changes nothing)', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const team = await createTeam(fx.stack.orm, { organizationId: ws.organizationId, name: 'Payments' });
    const body = { user_id: ws.as.MEMBER.userId };
    expect((await api('POST', `/teams/${team.id}/members`, { session: ws.owner, body })).body.data.added).toBe(true);
    expect((await api('POST', `/teams/${team.id}/members`, { session: ws.owner, body })).body.data.added).toBe(false);
    await api('DELETE', `/teams/${team.id}/members/${ws.as.MEMBER.userId}`, { session: ws.owner });
    const details = { team: 'Payments', user_id: ws.as.MEMBER.userId, email: ws.as.MEMBER.email };
    const ofTeam = (entries: Array<{ target: { id: string } }>) => entries.filter((e) => e.target.id === team.id);
    expect(ofTeam(await auditActions(ws.owner, 'team.member_add'))).toEqual([expect.objectContaining({ target: { type: 'team', id: team.id }, details })]);
    expect(await auditActions(ws.owner, 'team.member_remove')).toEqual([expect.objectContaining({ target: { type: 'team', id: team.id }, details })]);
  });
});
