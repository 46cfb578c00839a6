import { randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { dashboardFixture, readyWorkspaceOf } from '../../support/dashboard';
import { babsJensen, businessWorkspaceWithScim, expectScimError, GROUP_SCHEMA, patchOps } from '../../support/scim';
import { dnsFixture } from '../../support/sso-domains';

const dns = dnsFixture();
const fx = dashboardFixture({ env: () => ({ DNS_RESOLVERS: dns.server.address }) });
const db = () => knexOf(fx.stack.orm);
const teamMembers = async (teamId: string) => (await db()('team_members').where({ team_id: teamId }).orderBy('user_id')).map((r) => r.user_id as string);

/** A BUSINESS workspace with SCIM and two provisioned people. */
async function setUp() {
  // SCIM creates accounts only in a proven domain of the workspace.
  const ws = await businessWorkspaceWithScim(fx.stack.urls.app, fx.stack.orm, dns.server);
  const email = (who: string) => `${who}-${randomUUID().slice(0, 8)}@${ws.domain}`;
  const alice = (await ws.scim('POST', '/Users', babsJensen(email('alice')))).body;
  const bob = (await ws.scim('POST', '/Users', babsJensen(email('bob')))).body;
  return { ...ws, alice, bob };
}

describe('SCIM Groups are teams', () => {
  it('when a client creates a Group with members, then it is a team with those members, audited, and GET answers it', async () => {
    const { scim, owner, alice } = await setUp();
    const res = await scim('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Tour Guides', externalId: 'grp-1', members: [{ value: alice.id }] });
    expect(res.status).toBe(201);
    const group = res.body;
    expect(group).toEqual({
      schemas: [GROUP_SCHEMA],
      id: expect.any(String),
      externalId: 'grp-1',
      displayName: 'Tour Guides',
      members: [{ value: alice.id, display: alice.userName, type: 'User', $ref: `${fx.stack.urls.app}/scim/v2/Users/${alice.id}` }],
      meta: {
        resourceType: 'Group',
        created: expect.any(String),
        lastModified: expect.any(String),
        location: `${fx.stack.urls.app}/scim/v2/Groups/${group.id}`,
      },
    });
    expect(await db()('teams').where({ id: group.id }).first()).toMatchObject({ organization_id: owner.organizationId, name: 'Tour Guides' });
    expect(await teamMembers(group.id)).toEqual([alice.id]);
    expect((await scim('GET', `/Groups/${group.id}`)).body).toEqual(group);
    const actions = (await db()('audit_log').where({ target_id: group.id }).orderBy('created_at')).map((a) => [a.action, a.actor_label]);
    expect(actions).toEqual([
      ['team.create', 'system (SCIM provisioning)'],
      ['team.member_add', 'system (SCIM provisioning)'],
    ]);
  });

  it('when a client filters Groups by displayName and pages them, then the teams (the sign-up team too) come back', async () => {
    const { scim, owner } = await setUp();
    const made = (await scim('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Night Shift' })).body;
    const found = await scim('GET', `/Groups?filter=${encodeURIComponent('displayName eq "night shift"')}`);
    expect(found.body).toMatchObject({ totalResults: 1, Resources: [{ id: made.id, displayName: 'Night Shift' }] });
    const all = (await scim('GET', '/Groups?count=1')).body;
    expect(all).toMatchObject({ totalResults: 2, itemsPerPage: 1 });
    const { teamId } = await readyWorkspaceOf(fx.stack.orm, owner.organizationId);
    const second = (await scim('GET', '/Groups?startIndex=2&count=1')).body.Resources[0].id;
    expect([all.Resources[0].id, second].sort()).toEqual([made.id, teamId].sort());
    expectScimError(await scim('GET', `/Groups?filter=${encodeURIComponent('members eq "x"')}`), 400, 'invalidFilter');
  });

  it('when a client PATCHes members add and remove (by value list and by path filter) and replaces displayName, then the team follows', async () => {
    const { scim, alice, bob } = await setUp();
    const group = (await scim('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Ops' })).body;
    const add = await scim('PATCH', `/Groups/${group.id}`, patchOps({ op: 'add', path: 'members', value: [{ value: alice.id }, { value: bob.id }] }));
    expect(add.status).toBe(200);
    expect(add.body.members.map((m: any) => m.value).sort()).toEqual([alice.id, bob.id].sort());
    const remove = await scim(
      'PATCH',
      `/Groups/${group.id}`,
      patchOps({ op: 'remove', path: `members[value eq "${alice.id}"]` }, { op: 'replace', path: 'displayName', value: 'Operations' }),
    );
    expect(remove.body).toMatchObject({ displayName: 'Operations', members: [{ value: bob.id }] });
    expect(await teamMembers(group.id)).toEqual([bob.id]);
    // Okta's shape: remove with a value list; Azure AD's: no path, an object.
    await scim(
      'PATCH',
      `/Groups/${group.id}`,
      patchOps({ op: 'remove', path: 'members', value: [{ value: bob.id }] }, { op: 'Replace', value: { displayName: 'Ops 2' } }),
    );
    expect(await teamMembers(group.id)).toEqual([]);
    expect((await db()('teams').where({ id: group.id }).first()).name).toBe('Ops 2');
  });

  it('when a client PUTs a Group, then its name and members are replaced', async () => {
    const { scim, alice, bob } = await setUp();
    const group = (await scim('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'A', members: [{ value: alice.id }] })).body;
    const put = await scim('PUT', `/Groups/${group.id}`, { schemas: [GROUP_SCHEMA], displayName: 'B', members: [{ value: bob.id }] });
    expect(put.body).toMatchObject({ displayName: 'B', members: [{ value: bob.id }] });
    expect(await teamMembers(group.id)).toEqual([bob.id]);
  });

  it('when a PATCH names someone who is not a member of the workspace, or has an unknown path, then it is 400 and the team is unchanged', async () => {
    const { scim, alice } = await setUp();
    const group = (await scim('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Keep', members: [{ value: alice.id }] })).body;
    const other = await businessWorkspaceWithScim(fx.stack.urls.app, fx.stack.orm);
    const stranger = other.owner.userId;
    expectScimError(
      await scim(
        'PATCH',
        `/Groups/${group.id}`,
        patchOps({ op: 'replace', path: 'displayName', value: 'Changed' }, { op: 'add', path: 'members', value: [{ value: stranger }] }),
      ),
      400,
      'invalidValue',
      new RegExp(stranger),
    );
    expectScimError(await scim('PATCH', `/Groups/${group.id}`, patchOps({ op: 'add', path: 'members', value: [{ value: 'not-an-id' }] })), 400, 'invalidValue');
    expectScimError(await scim('PATCH', `/Groups/${group.id}`, patchOps({ op: 'replace', path: 'owner', value: 'x' })), 400, 'invalidPath');
    expect((await db()('teams').where({ id: group.id }).first()).name).toBe('Keep');
    expect(await teamMembers(group.id)).toEqual([alice.id]);
    // Another workspace's SCIM client does not see this team.
    expectScimError(await other.scim('GET', `/Groups/${group.id}`), 404);
    expectScimError(await other.scim('DELETE', `/Groups/${group.id}`), 404);
  });

  it('when a client DELETEs a Group, then the team is gone; a team that owns services is 409 and stays', async () => {
    const { scim, owner } = await setUp();
    const group = (await scim('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Temp' })).body;
    expect((await scim('DELETE', `/Groups/${group.id}`)).status).toBe(204);
    expect(await db()('teams').where({ id: group.id }).first()).toBeUndefined();
    expectScimError(await scim('GET', `/Groups/${group.id}`), 404);
    const { teamId } = await readyWorkspaceOf(fx.stack.orm, owner.organizationId);
    expectScimError(await scim('DELETE', `/Groups/${teamId}`), 409, undefined, /team_has_services/);
    expect(await db()('teams').where({ id: teamId }).first()).toBeDefined();
  });

  it('when a member of a Group is deprovisioned, then they leave its team too', async () => {
    const { scim, alice } = await setUp();
    const group = (await scim('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Leavers', members: [{ value: alice.id }] })).body;
    await scim('PATCH', `/Users/${alice.id}`, patchOps({ op: 'replace', path: 'active', value: false }));
    expect((await scim('GET', `/Groups/${group.id}`)).body.members).toEqual([]);
    expect(await teamMembers(group.id)).toEqual([]);
  });
});
