import { randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { addUser } from '../../../src/services/workspace';
import { dashboardFixture, memberSession, type DashboardSession } from '../../support/dashboard';
import { babsJensen, businessWorkspaceWithScim, expectScimError, LIST_SCHEMA, patchOps, USER_SCHEMA } from '../../support/scim';
import { dnsFixture } from '../../support/sso-domains';

const dns = dnsFixture();
const fx = dashboardFixture({ env: () => ({ DNS_RESOLVERS: dns.server.address }) });
const db = () => knexOf(fx.stack.orm);
/** The proven domain of the workspace the running test set up: SCIM creates accounts there only. */
let domain = 'example.test';
const setUp = async () => {
  const ws = await businessWorkspaceWithScim(fx.stack.urls.app, fx.stack.orm, dns.server);
  domain = ws.domain;
  return ws;
};
const email = (who = 'bjensen') => `${who}-${randomUUID().slice(0, 8)}@${domain}`;
const snapshot = async (organizationId: string) => ({
  members: await db()('memberships').where({ organization_id: organizationId }).orderBy('user_id'),
  scim: await db()('scim_users').where({ organization_id: organizationId }).orderBy('user_id'),
  users: await db()('users').select('id', 'email', 'name').orderBy('id'),
});

describe('SCIM Users (RFC 7644 examples)', () => {
  it('when a client creates a User, then it is a member with no password, shown with id, meta and externalId, and GET by id answers the same', async () => {
    const { scim, owner } = await setUp();
    const address = email();
    const created = await scim('POST', '/Users', babsJensen(address));
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toMatch(/^application\/scim\+json/);
    const user = created.body;
    expect(user).toEqual({
      schemas: [USER_SCHEMA],
      id: expect.any(String),
      externalId: `ext-${address}`,
      userName: address,
      name: { formatted: 'Barbara Jensen', givenName: 'Barbara', familyName: 'Jensen' },
      displayName: 'Barbara Jensen',
      emails: [{ value: address, type: 'work', primary: true }],
      active: true,
      meta: { resourceType: 'User', created: expect.any(String), lastModified: expect.any(String), location: `${fx.stack.urls.app}/scim/v2/Users/${user.id}` },
    });
    expect(created.headers.get('location')).toBe(user.meta.location);
    expect(await db()('memberships').where({ organization_id: owner.organizationId, user_id: user.id }).first()).toMatchObject({ role: 'MEMBER' });
    expect(await db()('users').where({ id: user.id }).first()).toMatchObject({ password_hash: null, verified: true, name: 'Barbara Jensen' });
    expect((await scim('GET', `/Users/${user.id}`)).body).toEqual(user);

    // No password: a password login fails exactly as a wrong password does.
    const login = await fx.api('POST', '/auth/login', { body: { email: address, password: 'anything at all 123' } });
    const wrong = await fx.api('POST', '/auth/login', { body: { email: owner.email, password: 'not the password 123' } });
    expect([login.status, login.body.code, login.body.error]).toEqual([wrong.status, wrong.body.code, wrong.body.error]);
  });

  it('when single sign-on is set up with a default role, then a provisioned person gets that role, as a just-in-time one would', async () => {
    const { scim, owner } = await setUp();
    await db()('sso_connections').update({ default_role: 'TEAM_MANAGER' }).where({ organization_id: owner.organizationId });
    const created = await scim('POST', '/Users', babsJensen(email()));
    expect(created.status).toBe(201);
    expect(await db()('memberships').where({ organization_id: owner.organizationId, user_id: created.body.id }).first()).toMatchObject({
      role: 'TEAM_MANAGER',
    });
  });

  it('when the userName is already a member, or an account outside this workspace, then POST is 409 uniqueness and nothing changes', async () => {
    const elsewhere = await setUp();
    const { scim, owner } = await setUp();
    const before = await snapshot(owner.organizationId);
    expectScimError(await scim('POST', '/Users', babsJensen(owner.email.toUpperCase())), 409, 'uniqueness');
    // SCIM never adopts an account made elsewhere (docs/scim.md): its owner joins by invitation.
    expectScimError(await scim('POST', '/Users', babsJensen(elsewhere.owner.email)), 409, 'uniqueness', /outside this workspace/);
    expect(await snapshot(owner.organizationId)).toEqual(before);
    expect(await db()('memberships').where({ user_id: elsewhere.owner.userId }).count({ n: '*' })).toEqual([{ n: '1' }]);
  });

  it('when the userName is in no proven domain of the workspace, then POST is 400 invalidValue naming userName and nothing is created', async () => {
    const { scim, owner } = await setUp();
    const before = await snapshot(owner.organizationId);
    const stranger = `stranger-${randomUUID().slice(0, 8)}@unproven.test`;
    expectScimError(await scim('POST', '/Users', babsJensen(stranger)), 400, 'invalidValue', /userName: unproven\.test is not a proven/);
    // Listed but not proven is no better.
    await fx.api('PUT', '/sso', { session: owner, body: { ...(await ssoBodyOf(owner)), domains: [domain, 'listed-only.test'] } });
    expectScimError(await scim('POST', '/Users', babsJensen(`p-${randomUUID().slice(0, 8)}@listed-only.test`)), 400, 'invalidValue', /listed-only\.test/);
    expect(await snapshot(owner.organizationId)).toEqual(before);
    expect(await db()('users').where({ email: stranger }).first()).toBeUndefined();
  });

  it('when a client filters by userName (any case), emails.value, active and and/or, then only the matching Users come back', async () => {
    const { scim, owner } = await setUp();
    const a = (await scim('POST', '/Users', babsJensen(email('alice')))).body;
    const b = (await scim('POST', '/Users', babsJensen(email('bob'), { active: false }))).body;
    const q = (filter: string) => scim('GET', `/Users?filter=${encodeURIComponent(filter)}`);

    const byName = await q(`userName eq "${a.userName.toUpperCase()}"`);
    expect(byName.body).toEqual({ schemas: [LIST_SCHEMA], totalResults: 1, startIndex: 1, itemsPerPage: 1, Resources: [a] });
    expect((await q(`emails.value eq "${b.userName}"`)).body.Resources.map((u: any) => u.id)).toEqual([b.id]);
    expect((await q(`emails[value eq "${b.userName}"]`)).body.Resources.map((u: any) => [u.id, u.active])).toEqual([[b.id, false]]);
    expect((await q('active eq false')).body.Resources.map((u: any) => u.id)).toEqual([b.id]);
    const either = await q(`userName eq "${a.userName}" or userName eq "${owner.email}"`);
    expect(either.body.Resources.map((u: any) => u.id).sort()).toEqual([a.id, owner.userId].sort());
    expect((await q(`userName sw "alice-" and active eq true`)).body.Resources.map((u: any) => u.id)).toEqual([a.id]);
    expect((await q(`externalId eq "ext-${a.userName}"`)).body.totalResults).toBe(1);
    expect((await q('userName eq "nobody@example.test"')).body).toEqual({
      schemas: [LIST_SCHEMA],
      totalResults: 0,
      startIndex: 1,
      itemsPerPage: 0,
      Resources: [],
    });
    // A value is never SQL: quotes and LIKE wildcards are data.
    expect((await q(`userName co "%' or 1=1 --"`)).body).toMatchObject({ totalResults: 0 });
    expect((await q('userName sw "_"')).body).toMatchObject({ totalResults: 0 });
  });

  it('when a client pages over 5 users with startIndex and count, then every user comes once with totalResults, itemsPerPage and startIndex', async () => {
    const { scim } = await setUp();
    for (let i = 0; i < 4; i++) expect((await scim('POST', '/Users', babsJensen(email(`p${i}`)))).status).toBe(201);
    const seen: string[] = [];
    for (const startIndex of [1, 3, 5]) {
      const page = (await scim('GET', `/Users?startIndex=${startIndex}&count=2`)).body;
      expect(page).toMatchObject({ totalResults: 5, startIndex, itemsPerPage: startIndex === 5 ? 1 : 2 });
      seen.push(...page.Resources.map((u: any) => u.id));
    }
    expect(new Set(seen).size).toBe(5);
    expect((await scim('GET', '/Users?count=0')).body).toMatchObject({ totalResults: 5, itemsPerPage: 0, Resources: [] });
    expect((await scim('GET', '/Users?startIndex=0&count=1000')).body).toMatchObject({ totalResults: 5, startIndex: 1, itemsPerPage: 5 });
  });

  it('when a client PUTs and PATCHes names and externalId (with a path, and without one as Azure AD does), then the User shows them', async () => {
    const { scim } = await setUp();
    const user = (await scim('POST', '/Users', babsJensen(email()))).body;
    const put = await scim('PUT', `/Users/${user.id}`, {
      schemas: [USER_SCHEMA],
      userName: user.userName,
      name: { givenName: 'Babs', familyName: 'Jensen' },
      externalId: 'x-1',
      active: true,
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      id: user.id,
      name: { givenName: 'Babs', familyName: 'Jensen', formatted: 'Babs Jensen' },
      externalId: 'x-1',
      active: true,
    });
    const patched = await scim(
      'PATCH',
      `/Users/${user.id}`,
      patchOps({ op: 'replace', path: 'name.givenName', value: 'Barbara' }, { op: 'Replace', value: { displayName: 'Ms Jensen', externalId: 'x-2' } }),
    );
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ displayName: 'Ms Jensen', name: { givenName: 'Barbara' }, externalId: 'x-2' });
    expect(await db()('users').where({ id: user.id }).first()).toMatchObject({ name: 'Ms Jensen' });
  });

  it('when a PATCH sets active false and later true, then the person leaves and rejoins as a member, and stays readable as a User in between', async () => {
    const { scim, owner } = await setUp();
    const user = (await scim('POST', '/Users', babsJensen(email()))).body;
    const off = await scim('PATCH', `/Users/${user.id}`, patchOps({ op: 'replace', path: 'active', value: false }));
    expect(off.body).toMatchObject({ id: user.id, active: false });
    expect(await db()('memberships').where({ organization_id: owner.organizationId, user_id: user.id }).first()).toBeUndefined();
    expect((await scim('GET', `/Users/${user.id}`)).body.active).toBe(false);
    // Azure AD's shape: no path, the string "True".
    const on = await scim('PATCH', `/Users/${user.id}`, patchOps({ op: 'Replace', value: { active: 'True' } }));
    expect(on.body.active).toBe(true);
    expect(await db()('memberships').where({ organization_id: owner.organizationId, user_id: user.id }).first()).toMatchObject({ role: 'MEMBER' });
    const audit = await db()('audit_log').where({ organization_id: owner.organizationId, target_id: user.id }).orderBy('created_at');
    expect(audit.map((a) => [a.action, a.actor_label])).toEqual([
      ['member.provision', 'system (SCIM provisioning)'],
      ['member.remove', 'system (SCIM provisioning)'],
      ['member.provision', 'system (SCIM provisioning)'],
    ]);
  });

  it('when a person who joined without SCIM is deprovisioned, then SCIM cannot make them a member again: 409, nothing changes', async () => {
    const { scim, owner } = await setUp();
    // Their own account (added as an invitation would), in the proven domain even.
    const person = await addUser(fx.stack.orm, {
      organizationId: owner.organizationId,
      email: email('invited'),
      password: 'long enough pw',
      role: 'MEMBER',
      verified: true,
    });
    expect((await scim('PATCH', `/Users/${person.id}`, patchOps({ op: 'replace', path: 'active', value: false }))).status).toBe(200);
    const before = await snapshot(owner.organizationId);
    expectScimError(await scim('PATCH', `/Users/${person.id}`, patchOps({ op: 'replace', path: 'active', value: true })), 409, undefined, /invite it/);
    expectScimError(await scim('PUT', `/Users/${person.id}`, babsJensen(person.email, { active: true })), 409, undefined, /invite it/);
    expect(await snapshot(owner.organizationId)).toEqual(before);
  });

  it('when a client DELETEs a User, then the membership is gone and the User is 404; a person of another workspace is 404 too', async () => {
    const { scim, owner } = await setUp();
    const user = (await scim('POST', '/Users', babsJensen(email()))).body;
    const res = await scim('DELETE', `/Users/${user.id}`);
    expect(res.status).toBe(204);
    expectScimError(await scim('GET', `/Users/${user.id}`), 404);
    expect(await db()('memberships').where({ organization_id: owner.organizationId, user_id: user.id }).first()).toBeUndefined();
    expectScimError(await scim('DELETE', `/Users/${user.id}`), 404);

    const other = await setUp();
    expectScimError(await scim('GET', `/Users/${other.owner.userId}`), 404);
    expectScimError(await scim('PATCH', `/Users/${other.owner.userId}`, patchOps({ op: 'replace', path: 'active', value: false })), 404);
    expect(await db()('memberships').where({ user_id: other.owner.userId }).first()).toBeDefined();
  });

  it('when SCIM tries to deprovision the Billing Owner, then it is 409 naming why, and the owner keeps the workspace', async () => {
    const { scim, owner } = await setUp();
    const before = await snapshot(owner.organizationId);
    expectScimError(await scim('PATCH', `/Users/${owner.userId}`, patchOps({ op: 'replace', path: 'active', value: false })), 409, undefined, /Billing Owner/);
    expectScimError(await scim('DELETE', `/Users/${owner.userId}`), 409, undefined, /Billing Owner/);
    expect(await snapshot(owner.organizationId)).toEqual(before);
    expect((await fx.api('GET', '/auth/session', { session: owner })).status).toBe(200);
  });

  it('when SCIM deprovisions someone mid-session, then their next dashboard request is 401 and their API token and API key are refused', async () => {
    const { scim, owner } = await setUp();
    const person = await memberSession(fx.stack.urls.app, fx.stack.orm, owner.organizationId, 'ACCOUNT_ADMIN');
    const key = (await fx.api('POST', '/api-keys', { session: person, body: { password: person.password } })).body.data.key as string;
    const token = (await fx.api('POST', '/tokens', { session: person, body: { access: 'READ_ONLY', days: 1 } })).body.data.token as string;
    const asKey = () => fetch(`${fx.stack.urls.apiKey}/v1/users/me`, { headers: { Authorization: `Bearer ${key}` } });
    const asToken = () =>
      fetch(`${fx.stack.urls.app}/api/v1/organizations/${owner.organizationId}/monitors`, { headers: { Authorization: `Bearer ${token}` } });
    expect([(await fx.api('GET', '/auth/session', { session: person })).status, (await asKey()).status, (await asToken()).status]).toEqual([200, 200, 200]);

    const found = await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${person.email}"`)}`);
    expect(found.body.Resources.map((u: any) => u.id)).toEqual([person.userId]);
    expect((await scim('PATCH', `/Users/${person.userId}`, patchOps({ op: 'replace', path: 'active', value: false }))).status).toBe(200);

    expect((await fx.api('GET', '/auth/session', { session: person })).status).toBe(401);
    expect((await fx.api('GET', '/members', { session: person })).status).toBe(401);
    expect((await asKey()).status).toBe(401);
    expect((await asToken()).status).toBe(401);
    const removal = await db()('audit_log').where({ organization_id: owner.organizationId, action: 'member.remove', target_id: person.userId }).first();
    expect(JSON.parse(JSON.stringify(removal.details))).toMatchObject({ api_tokens_revoked: 1, api_keys_revoked: 1 });
  });
});

/** The workspace's SSO settings as a PUT body (the SAML ones businessWorkspaceWithScim saved). */
async function ssoBodyOf(session: DashboardSession) {
  const { type, idp_entity_id, idp_sso_url, idp_certificate } = (await fx.api('GET', '/sso', { session })).body.data;
  return { type, idp_entity_id, idp_sso_url, idp_certificate };
}

describe('SCIM Users: bad requests change nothing', () => {
  it('when the filter is not SCIM, or names an attribute or operator Klaxon does not filter on, then it is 400 invalidFilter', async () => {
    const { scim } = await setUp();
    const q = (filter: string) => scim('GET', `/Users?filter=${encodeURIComponent(filter)}`);
    expectScimError(await q('userName eq'), 400, 'invalidFilter');
    expectScimError(await q('userName eq "a" and'), 400, 'invalidFilter');
    expectScimError(await q('title eq "boss"'), 400, 'invalidFilter', /title/);
    expectScimError(await q('userName gt "a"'), 400, 'invalidFilter', /gt/);
    expectScimError(await q('active eq "yes"'), 400, 'invalidFilter');
    expectScimError(await q(`userName eq "${'a'.repeat(1200)}"`), 400, 'invalidValue', /filter/);
    expectScimError(await scim('GET', '/Users?count=many'), 400, 'invalidValue', /count/);
  });

  it('when a PATCH has an unknown op, an unknown path, a bad value, or a good operation before a bad one, then it is 400 and the User is unchanged', async () => {
    const { scim, owner } = await setUp();
    const user = (await scim('POST', '/Users', babsJensen(email()))).body;
    const before = await snapshot(owner.organizationId);
    const patch = (...ops: unknown[]) => scim('PATCH', `/Users/${user.id}`, patchOps(...ops));
    expectScimError(await patch({ op: 'move', path: 'active', value: false }), 400, 'invalidValue', /Operations\.0\.op/);
    expectScimError(await patch({ op: 'replace', path: 'title', value: 'x' }), 400, 'invalidPath', /title/);
    expectScimError(await patch({ op: 'replace', path: 'active', value: 'maybe' }), 400, 'invalidValue', /active/);
    expectScimError(
      await patch({ op: 'replace', path: 'active', value: false }, { op: 'replace', path: 'displayName', value: 'x'.repeat(101) }),
      400,
      'invalidValue',
      /Operations\.1/,
    );
    expectScimError(await patch({ op: 'replace', path: 'userName', value: email('someone-else') }), 400, 'mutability');
    expectScimError(await patch({ op: 'remove' }), 400, 'noTarget');
    expectScimError(
      await scim('PATCH', `/Users/${user.id}`, {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: Array(101).fill({ op: 'replace', path: 'active', value: true }),
      }),
      400,
      'invalidValue',
      /Operations/,
    );
    expectScimError(
      await scim('PATCH', `/Users/${user.id}`, { Operations: [{ op: 'replace', path: 'active', value: false }] }),
      400,
      'invalidValue',
      /schemas/,
    );
    expect(await snapshot(owner.organizationId)).toEqual(before);
  });

  it('when a body is not JSON, too large, or not an email userName, then it is 400/413/415 and nothing is created', async () => {
    const { scim, owner } = await setUp();
    const before = await snapshot(owner.organizationId);
    expectScimError(await scim('POST', '/Users', '{"userName": '), 400, 'invalidSyntax');
    expectScimError(await scim('POST', '/Users', babsJensen(email(), { nickName: 'x'.repeat(1_100_000) })), 413);
    expectScimError(await scim('POST', '/Users', babsJensen(email()), { 'Content-Type': 'text/plain' }), 415);
    expectScimError(await scim('POST', '/Users', babsJensen('not-an-email')), 400, 'invalidValue', /userName/);
    expectScimError(await scim('POST', '/Users', babsJensen(email(), { name: { givenName: 'x'.repeat(101) } })), 400, 'invalidValue', /name\.givenName/);
    expect(await snapshot(owner.organizationId)).toEqual(before);
  });

  it('when an existing member (not provisioned by SCIM) is read, then they are an active User with meta from their membership', async () => {
    const { scim, owner } = await setUp();
    const other = await addUser(fx.stack.orm, {
      organizationId: owner.organizationId,
      email: email('manual'),
      password: 'long enough pw',
      role: 'TEAM_MANAGER',
      verified: true,
    });
    const res = await scim('GET', `/Users/${other.id}`);
    expect(res.body).toMatchObject({ id: other.id, userName: other.email, active: true, meta: { resourceType: 'User', created: expect.any(String) } });
    expect(res.body.externalId).toBeUndefined();
  });
});
