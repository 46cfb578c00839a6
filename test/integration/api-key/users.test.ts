import { randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { addContactMethod } from '../../../src/services/paging/contacts';
import { revokeApiKey } from '../../../src/services/workspace/api-keys';
import { addTeamMember } from '../../../src/services/workspace/team-members';
import { addUser, createTeam } from '../../../src/services/workspace/workspaces';
import { request } from '../../support/http';
import { apiKeyFor, expectEnvelopeError } from '../../support/api-key';
import { startTestStack, type TestStack } from '../../support/stack';
import { addMember, seedWorkspace, type SeededWorkspace } from '../../support/workspace';

let stack: TestStack;
let ws: SeededWorkspace;
let adminKey: string;
const v1 = (path: string) => `${stack.urls.apiKey}/v1${path}`;

const USER_FIELDS = ['created_at', 'email', 'id', 'name', 'notification_preferences', 'role', 'teams', 'time_zone', 'verified'];
const DEFAULT_PREFERENCES = { email_on_incident_assigned: true, email_on_incident_resolved: false, daily_digest: false };

/** The profile columns of a user's row, as stored. */
const profileRow = (userId: string) => knexOf(stack.orm)('users').select('name', 'time_zone', 'notification_preferences').where({ id: userId }).first();

/** A member of `ws` with their own key. */
async function memberWithKey(role: Parameters<typeof addMember>[2] = 'MEMBER') {
  const user = await addMember(stack.orm, ws.organizationId, role);
  const created = await apiKeyFor(stack.orm, ws.organizationId, user);
  return { user, key: created.key, keyId: created.id };
}

beforeAll(async () => {
  stack = await startTestStack();
  ws = await seedWorkspace(stack.orm);
  adminKey = (await apiKeyFor(stack.orm, ws.organizationId, ws.admin)).key;
});
afterAll(() => stack.stop());

describe('GET /v1/users/me', () => {
  it('when a key asks for its own user, then it gets the documented fields with defaults filled in, and no secret or contact address', async () => {
    await addTeamMember(stack.orm, { teamId: ws.teamId, email: ws.admin.email });
    const contact = await addContactMethod(stack.orm, { email: ws.admin.email, type: 'sms', address: '+14155550123', organizationId: ws.organizationId });
    const res = await request('GET', v1('/users/me'), { token: adminKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: expect.any(String) });
    const me = res.body.data;
    expect(Object.keys(me).sort()).toEqual(USER_FIELDS);
    expect(me).toEqual({
      id: ws.admin.id,
      email: ws.admin.email,
      name: null,
      role: 'ACCOUNT_ADMIN',
      time_zone: null,
      verified: true,
      notification_preferences: DEFAULT_PREFERENCES,
      teams: [{ id: ws.teamId, name: 'Ops' }],
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
    });
    const text = JSON.stringify(res.body);
    expect(text).not.toMatch(/password/i);
    expect(text).not.toContain(adminKey);
    expect(text).not.toContain(contact.address);
    const { password_hash: hash } = await knexOf(stack.orm)('users').select('password_hash').where({ id: ws.admin.id }).first();
    expect(text).not.toContain(hash);
  });

  it('when a member of two workspaces asks, then role and teams are those of the key’s workspace', async () => {
    const other = await seedWorkspace(stack.orm);
    const { user, key } = await memberWithKey('MEMBER');
    await addUser(stack.orm, {
      organizationId: other.organizationId,
      email: user.email,
      password: 'another long password',
      role: 'ACCOUNT_ADMIN',
      verified: true,
    });
    await addTeamMember(stack.orm, { teamId: other.teamId, email: user.email });
    const otherKey = (await apiKeyFor(stack.orm, other.organizationId, user)).key;

    const here = (await request('GET', v1('/users/me'), { token: key })).body.data;
    expect(here).toMatchObject({ id: user.id, role: 'MEMBER', teams: [] });
    const there = (await request('GET', v1('/users/me'), { token: otherKey })).body.data;
    expect(there).toMatchObject({ id: user.id, role: 'ACCOUNT_ADMIN', teams: [{ id: other.teamId, name: 'Ops' }] });
  });
});

describe('PUT /v1/users/me', () => {
  it('when each field is changed, then the answer, later reads and the row follow; null clears name and time zone', async () => {
    const { user, key } = await memberWithKey();

    const named = await request('PUT', v1('/users/me'), { token: key, body: { name: '  Ada Lovelace  ' } });
    expect(named.status).toBe(200);
    expect(named.body).toMatchObject({ success: true, data: { id: user.id, name: 'Ada Lovelace', time_zone: null, role: 'MEMBER' } });
    expect(Object.keys(named.body.data).sort()).toEqual(USER_FIELDS);

    const zoned = await request('PUT', v1('/users/me'), { token: key, body: { time_zone: 'Europe/Berlin' } });
    expect(zoned.status).toBe(200);
    expect(zoned.body.data).toMatchObject({ name: 'Ada Lovelace', time_zone: 'Europe/Berlin' });

    const prefs = await request('PUT', v1('/users/me'), { token: key, body: { notification_preferences: { daily_digest: true } } });
    expect(prefs.status).toBe(200);
    expect(prefs.body.data.notification_preferences).toEqual({ ...DEFAULT_PREFERENCES, daily_digest: true });

    expect((await request('GET', v1('/users/me'), { token: key })).body.data).toEqual(prefs.body.data);
    expect(await profileRow(user.id)).toEqual({ name: 'Ada Lovelace', time_zone: 'Europe/Berlin', notification_preferences: { daily_digest: true } });

    const cleared = await request('PUT', v1('/users/me'), { token: key, body: { name: null, time_zone: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data).toMatchObject({ name: null, time_zone: null, notification_preferences: { ...DEFAULT_PREFERENCES, daily_digest: true } });
    expect(await profileRow(user.id)).toMatchObject({ name: null, time_zone: null });
  });

  it('when a time zone is sent in another case or as a link name, then it is accepted: listed zones in their own spelling, links as sent', async () => {
    const { key } = await memberWithKey();
    for (const [sent, stored] of [
      ['america/new_york', 'America/New_York'],
      ['UTC', 'UTC'],
      ['Asia/Kolkata', 'Asia/Kolkata'],
      ['Etc/GMT+5', 'Etc/GMT+5'],
    ]) {
      const res = await request('PUT', v1('/users/me'), { token: key, body: { time_zone: sent } });
      expect({ sent, status: res.status, zone: res.body.data?.time_zone }).toEqual({ sent, status: 200, zone: stored });
    }
  });

  it('when preferences are changed in several calls, then each merges into what is stored and keys not sent keep their value', async () => {
    const { user, key } = await memberWithKey();
    await request('PUT', v1('/users/me'), { token: key, body: { notification_preferences: { daily_digest: true, email_on_incident_resolved: true } } });
    const second = await request('PUT', v1('/users/me'), {
      token: key,
      body: { notification_preferences: { email_on_incident_assigned: false, daily_digest: false } },
    });
    expect(second.status).toBe(200);
    expect(second.body.data.notification_preferences).toEqual({ email_on_incident_assigned: false, email_on_incident_resolved: true, daily_digest: false });
    // Only what was chosen is stored; defaults are filled in on the way out.
    expect((await profileRow(user.id)).notification_preferences).toEqual({
      email_on_incident_assigned: false,
      email_on_incident_resolved: true,
      daily_digest: false,
    });

    const empty = await request('PUT', v1('/users/me'), { token: key, body: { notification_preferences: {} } });
    expect(empty.status).toBe(200);
    expect(empty.body.data.notification_preferences).toEqual(second.body.data.notification_preferences);
  });

  it('when the stored preferences hold an unknown key or a non-boolean, then reads show only the documented keys, defaults where needed', async () => {
    const { user, key } = await memberWithKey();
    await knexOf(stack.orm)('users')
      .update({ notification_preferences: JSON.stringify({ daily_digest: 'yes', email_on_incident_resolved: true, legacy_flag: 1 }) })
      .where({ id: user.id });
    const me = await request('GET', v1('/users/me'), { token: key });
    expect(me.body.data.notification_preferences).toEqual({ ...DEFAULT_PREFERENCES, email_on_incident_resolved: true });
  });

  it('when the body is invalid, then 400 invalid_request naming the field, and the row is unchanged', async () => {
    const { user, key } = await memberWithKey();
    const set = await request('PUT', v1('/users/me'), {
      token: key,
      body: { name: 'Grace', time_zone: 'America/New_York', notification_preferences: { daily_digest: true } },
    });
    expect(set.status).toBe(200);
    const before = await profileRow(user.id);

    const cases: Array<[unknown, RegExp]> = [
      [{ time_zone: 'Mars/Base' }, /time_zone.*Mars\/Base/],
      [{ time_zone: '+01:00' }, /time_zone/],
      [{ time_zone: '' }, /time_zone/],
      [{ time_zone: 5 }, /time_zone/],
      [{ colour: 'red' }, /unknown field "colour"/],
      [{ email: 'new@example.test' }, /email cannot be changed here/],
      [{ role: 'ACCOUNT_ADMIN' }, /role cannot be changed here/],
      [{ name: 'Valid Name', email: 'new@example.test' }, /email cannot be changed here/],
      [{ name: 'x'.repeat(101) }, /name must be 1 to 100 characters/],
      [{ name: '   ' }, /name must be 1 to 100 characters/],
      [{ name: 42 }, /name must be a string/],
      [{ name: 'Valid Name', time_zone: 'Mars/Base' }, /time_zone/],
      [{ notification_preferences: { daily_digest: 'yes' } }, /notification_preferences\.daily_digest/],
      [{ notification_preferences: { sms: true } }, /notification_preferences: unknown preference "sms"/],
      [{ notification_preferences: { daily_digest: false, sms: true } }, /unknown preference "sms"/],
      [{ notification_preferences: null }, /notification_preferences must be an object/],
      [{ notification_preferences: [true] }, /notification_preferences must be an object/],
      [{}, /send at least one of name, time_zone, notification_preferences/],
      [[], /request body must be a JSON object/],
    ];
    for (const [body, message] of cases) {
      const res = await request('PUT', v1('/users/me'), { token: key, body });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expectEnvelopeError(res.body, 'invalid_request');
      expect({ body, error: res.body.error }).toEqual({ body, error: expect.stringMatching(message) });
    }
    expect(await profileRow(user.id)).toEqual(before);
    expect(before).toEqual({ name: 'Grace', time_zone: 'America/New_York', notification_preferences: { daily_digest: true } });
    // Email and role are where they were too.
    expect(await knexOf(stack.orm)('users').select('email').where({ id: user.id }).first()).toEqual({ email: user.email });
    expect(await knexOf(stack.orm)('memberships').select('role').where({ user_id: user.id, organization_id: ws.organizationId }).first()).toEqual({
      role: 'MEMBER',
    });
  });

  it('when a name is exactly 100 characters after trimming, then it is accepted', async () => {
    const { key } = await memberWithKey();
    const res = await request('PUT', v1('/users/me'), { token: key, body: { name: ` ${'n'.repeat(100)} ` } });
    expect(res.status).toBe(200);
    expect(res.body.data.name).toBe('n'.repeat(100));
  });

  it('when a member changes their profile, then only their own row changes', async () => {
    const { key } = await memberWithKey();
    const adminBefore = await profileRow(ws.admin.id);
    expect((await request('PUT', v1('/users/me'), { token: key, body: { name: 'Only Me', time_zone: 'Asia/Tokyo' } })).status).toBe(200);
    expect(await profileRow(ws.admin.id)).toEqual(adminBefore);
  });
});

describe('GET /v1/users', () => {
  let team: SeededWorkspace;
  let reader: { key: string; userId?: string };
  /** The workspace's members in email order: each address's first letter decides it. */
  let emails: string[];
  let manager: { id: string; email: string };

  beforeAll(async () => {
    team = await seedWorkspace(stack.orm); // its admin's email starts with "account_admin-"
    const added: Record<string, { id: string; email: string }> = {};
    for (const [letter, role] of [
      ['d', 'TEAM_MANAGER'],
      ['b', 'MEMBER'],
      ['e', 'BILLING_OWNER'],
      ['c', 'MEMBER'],
    ] as const) {
      added[letter] = await addUser(stack.orm, {
        organizationId: team.organizationId,
        email: `${letter}-${randomUUID().slice(0, 8)}@example.test`,
        password: 'a long password',
        role,
        verified: letter !== 'c',
      });
    }
    manager = added.d;
    const sre = await createTeam(stack.orm, { organizationId: team.organizationId, name: 'SRE' });
    await addTeamMember(stack.orm, { teamId: sre.id, email: manager.email });
    await addTeamMember(stack.orm, { teamId: team.teamId, email: manager.email });
    reader = await apiKeyFor(stack.orm, team.organizationId, 'MEMBER'); // "member-…": last
    const readerEmail = (await knexOf(stack.orm)('users').select('email').where({ id: reader.userId }).first()).email as string;
    emails = [team.admin.email, added.b.email, added.c.email, added.d.email, added.e.email, readerEmail];
  });

  it('when any member lists users, then every member comes by email with their role here and teams, and no secret', async () => {
    const res = await request('GET', v1('/users'), { token: reader.key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: expect.any(String), meta: { total: 6, limit: 50, offset: 0 } });
    const users = res.body.data as Array<Record<string, unknown>>;
    expect(users.map((u) => u.email)).toEqual(emails);
    for (const u of users) expect(Object.keys(u).sort()).toEqual(USER_FIELDS);
    expect(users.map((u) => u.role)).toEqual(['ACCOUNT_ADMIN', 'MEMBER', 'MEMBER', 'TEAM_MANAGER', 'BILLING_OWNER', 'MEMBER']);
    expect(users[0]).toMatchObject({ id: team.admin.id, teams: [], notification_preferences: DEFAULT_PREFERENCES, verified: true });
    expect(users[2]).toMatchObject({ verified: false });
    expect(users[3]).toMatchObject({
      id: manager.id,
      teams: [
        { id: team.teamId, name: 'Ops' },
        { id: expect.any(String), name: 'SRE' },
      ],
    });
    const text = JSON.stringify(res.body);
    expect(text).not.toMatch(/password/i);
    expect(text).not.toContain(reader.key);
  });

  it('when a member changed their profile, then the list shows it', async () => {
    const key = (await apiKeyFor(stack.orm, team.organizationId, manager)).key;
    expect((await request('PUT', v1('/users/me'), { token: key, body: { name: 'Dana', notification_preferences: { daily_digest: true } } })).status).toBe(200);
    const listed = (await request('GET', v1('/users?limit=1&offset=3'), { token: reader.key })).body.data;
    expect(listed).toEqual([
      expect.objectContaining({ id: manager.id, name: 'Dana', notification_preferences: { ...DEFAULT_PREFERENCES, daily_digest: true } }),
    ]);
  });

  it('when paging, then limit and offset cut the same order, an offset past the end is an empty page, and meta.total stays', async () => {
    const page = async (q: string) => {
      const res = await request('GET', v1(`/users?${q}`), { token: reader.key });
      expect(res.status).toBe(200);
      return { emails: (res.body.data as Array<{ email: string }>).map((u) => u.email), meta: res.body.meta };
    };
    expect(await page('limit=2')).toEqual({ emails: emails.slice(0, 2), meta: { total: 6, limit: 2, offset: 0 } });
    expect(await page('limit=2&offset=2')).toEqual({ emails: emails.slice(2, 4), meta: { total: 6, limit: 2, offset: 2 } });
    expect(await page('limit=4&offset=4')).toEqual({ emails: emails.slice(4), meta: { total: 6, limit: 4, offset: 4 } });
    expect(await page('offset=5')).toEqual({ emails: emails.slice(5), meta: { total: 6, limit: 50, offset: 5 } });
    expect(await page('offset=6')).toEqual({ emails: [], meta: { total: 6, limit: 50, offset: 6 } });
    expect(await page('limit=100')).toEqual({ emails, meta: { total: 6, limit: 100, offset: 0 } });
    expect(await page('limit=1')).toEqual({ emails: emails.slice(0, 1), meta: { total: 6, limit: 1, offset: 0 } });
  });

  it('when paging is out of range, then 400 naming the parameter', async () => {
    for (const q of ['limit=0', 'limit=101', 'offset=-1', 'limit=abc', 'limit=1.5']) {
      const res = await request('GET', v1(`/users?${q}`), { token: reader.key });
      expect({ q, status: res.status }).toEqual({ q, status: 400 });
      expectEnvelopeError(res.body, 'invalid_request');
      expect(res.body.error).toMatch(/limit|offset/);
    }
  });

  it('when another workspace lists its users, then none of these members appear, nor theirs here', async () => {
    const otherKey = adminKey; // the file's first workspace
    const theirs = (await request('GET', v1('/users?limit=100'), { token: otherKey })).body;
    const theirEmails = (theirs.data as Array<{ email: string }>).map((u) => u.email);
    expect(theirEmails).toContain(ws.admin.email);
    for (const email of emails) expect(theirEmails).not.toContain(email);
    expect(theirs.meta.total).toBe(theirEmails.length);
    const ours = ((await request('GET', v1('/users?limit=100'), { token: reader.key })).body.data as Array<{ email: string }>).map((u) => u.email);
    expect(ours).toEqual(emails);
    expect(ours).not.toContain(ws.admin.email);
  });
});

describe('credentials on /v1/users', () => {
  it('when the key is revoked, then 401 on every users route and a PUT changes nothing', async () => {
    const { user, key, keyId } = await memberWithKey();
    expect((await request('GET', v1('/users/me'), { token: key })).status).toBe(200);
    await revokeApiKey(stack.orm, keyId);
    const before = await profileRow(user.id);
    for (const [method, path, body] of [
      ['GET', '/users/me'],
      ['PUT', '/users/me', { name: 'Too Late' }],
      ['GET', '/users'],
    ] as const) {
      const res = await request(method, v1(path), { token: key, body });
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 401 });
      expectEnvelopeError(res.body, 'unauthorized');
    }
    expect(await profileRow(user.id)).toEqual(before);
  });

  it('when a customer API token or no key is sent, then 401', async () => {
    for (const token of [ws.tokens.readWrite, ws.tokens.readOnly, undefined]) {
      const res = await request('GET', v1('/users/me'), { token });
      expect(res.status).toBe(401);
      expectEnvelopeError(res.body, 'unauthorized');
    }
    const put = await request('PUT', v1('/users/me'), { token: ws.tokens.readWrite, body: { name: 'Token' } });
    expect(put.status).toBe(401);
  });

  it('when the OpenAPI document is read, then it describes the users routes', async () => {
    const doc = (await request('GET', v1('/openapi.json'))).body;
    expect(Object.keys(doc.paths['/v1/users/me']).sort()).toEqual(['get', 'put']);
    expect(Object.keys(doc.paths['/v1/users'])).toEqual(['get']);
    expect(doc.components.schemas.User.properties.time_zone.description).toMatch(/null means UTC/);
    expect(Object.keys(doc.components.schemas.NotificationPreferences.properties).sort()).toEqual([
      'daily_digest',
      'email_on_incident_assigned',
      'email_on_incident_resolved',
    ]);
  });
});
