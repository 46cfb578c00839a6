import { knexOf } from '../../src/db/knex';
import { klaxon } from '../support/cli';
import { request } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ worker: false });
});
afterAll(() => stack.stop());

const INGEST_URL = 'https://ingest.klaxon.test';
const countOrgs = async () => Number((await knexOf(stack.orm)('organizations').count({ n: '*' }))[0].n);
const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`;

describe('klaxon bootstrap', () => {
  it('when run with --json, then exactly one JSON object whose token and ids work against the API', async () => {
    const email = uniqueEmail('boot');
    const res = await klaxon(['bootstrap', '--org', 'Acme', '--email', email, '--password', 'hunter2hunter2', '--plan', 'PRO', '--json'], { INGEST_URL });
    expect(res.code).toBe(0);
    expect(res.stdout.trim().split('\n')).toHaveLength(1);
    const out = res.json;
    expect(Object.keys(out).sort()).toEqual(['escalation_policy_id', 'organization_id', 'paging', 'service_id', 'source', 'team_id', 'token', 'user']);
    expect(out.user).toEqual({ id: expect.any(String), email });
    expect(Object.keys(out.source).sort()).toEqual(['id', 'ingest_url', 'routing_key']);
    expect(out.source.routing_key).toMatch(/^[0-9a-f]{32}$/);
    expect(out.source.ingest_url).toMatch(new RegExp(`^${INGEST_URL}/[A-Za-z0-9_-]{20,}$`));
    expect(Object.keys(out.token).sort()).toEqual(['access', 'expires_at', 'id', 'token']);
    expect(out.token.access).toBe('READ_WRITE');
    const days = (Date.parse(out.token.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);

    const base = `${stack.urls.app}/api/v1/organizations/${out.organization_id}`;
    const services = await request('GET', `${base}/services`, { token: out.token.token });
    expect(services.body.data).toEqual([expect.objectContaining({ id: out.service_id, owning_team_id: out.team_id })]);
    const member = await knexOf(stack.orm)('memberships as m').join('users as u', 'u.id', 'm.user_id').where({ 'u.id': out.user.id }).first();
    expect(member).toMatchObject({ role: 'ACCOUNT_ADMIN', verified: true });

    // The admin is paged by email for the new team, so a fresh install's first alert reaches someone.
    expect(out.paging).toEqual({
      team_member: true,
      contact_method: { id: expect.any(String), type: 'email', address: email },
      notification_rule: { id: expect.any(String), delay_seconds: 0 },
    });
    const db = knexOf(stack.orm);
    expect(await db('team_members').where({ team_id: out.team_id, user_id: out.user.id }).first()).toBeTruthy();
    // Ready as a sign-up is: the service pages its team at once through the "Default" policy.
    expect(await db('services').where({ id: out.service_id }).first()).toMatchObject({
      escalation_policy_id: out.escalation_policy_id,
      name: 'Default service',
    });
    expect((await db('escalation_policies').where({ id: out.escalation_policy_id }).first()).steps).toEqual([
      { delay_seconds: 300, targets: [{ type: 'team', id: out.team_id }] },
    ]);
    expect(await db('contact_methods').where({ id: out.paging.contact_method.id, user_id: out.user.id }).first()).toMatchObject({
      type: 'email',
      address: email,
    });
    expect(await db('notification_rules').where({ id: out.paging.notification_rule.id }).first()).toMatchObject({
      contact_method_id: out.paging.contact_method.id,
      delay_seconds: 0,
    });
  });

  it.each([
    ['a plan without API access', ['--plan', 'FREE'], /API access/],
    ['an unknown plan', ['--plan', 'GOLD'], /--plan: must be one of FREE, STARTER, PRO, BUSINESS/],
    ['a short password', ['--password', 'short'], /--password: must be at least 8 characters/],
    ['a bad email', ['--email', 'not-an-email'], /--email: must be an email address/],
  ])('when given %s, then a clear error, a non-zero exit and nothing created', async (_name, override, message) => {
    const before = await countOrgs();
    const args: Record<string, string> = { '--org': 'Bad', '--email': uniqueEmail('bad'), '--password': 'long enough pw', '--plan': 'PRO' };
    args[override[0]] = override[1];
    const res = await klaxon(['bootstrap', ...Object.entries(args).flat(), '--json']);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(message);
    expect(res.stdout).toBe('');
    expect(await countOrgs()).toBe(before);
  });

  it('when a required option is missing, then commander names it and exits non-zero', async () => {
    const res = await klaxon(['bootstrap', '--org', 'x', '--json']);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/--email/);
  });
});

describe('klaxon org, user and token', () => {
  let orgId: string;
  let adminEmail: string;

  beforeAll(async () => {
    const org = await klaxon(['org', 'create', '--name', 'Second', '--plan', 'business', '--json']);
    expect(org.code).toBe(0);
    expect(org.json).toMatchObject({
      name: 'Second',
      plan: 'BUSINESS',
      team_id: expect.any(String),
      service_id: expect.any(String),
      escalation_policy_id: expect.any(String),
    });
    orgId = org.json.id;
    adminEmail = uniqueEmail('admin');
    const user = await klaxon(['user', 'add', '--org', orgId, '--email', adminEmail, '--password', 'a long password', '--role', 'ACCOUNT_ADMIN', '--json']);
    expect(user.json).toMatchObject({ email: adminEmail, role: 'ACCOUNT_ADMIN', verified: true });
  });

  it('when org create made the workspace, then it is ready to page: the first person added is on call by email, later ones are not', async () => {
    const org = await klaxon(['org', 'create', '--name', 'Ready', '--plan', 'FREE', '--json']);
    const { team_id: teamId, service_id: serviceId, escalation_policy_id: policyId } = org.json;
    const db = knexOf(stack.orm);
    expect(await db('teams').where({ id: teamId }).first()).toMatchObject({ organization_id: org.json.id, name: 'Ready' });
    expect(await db('services').where({ id: serviceId }).first()).toMatchObject({ team_id: teamId, name: 'Default service', escalation_policy_id: policyId });
    expect(await db('escalation_policies').where({ id: policyId }).first()).toMatchObject({
      name: 'Default',
      repeat: 2,
      steps: [{ delay_seconds: 300, targets: [{ type: 'team', id: teamId }] }],
    });

    const first = uniqueEmail('first');
    const added = await klaxon(['user', 'add', '--org', org.json.id, '--email', first, '--password', 'a long password', '--role', 'BILLING_OWNER', '--json']);
    expect(added.json.paging).toEqual({
      team_member: true,
      contact_method: { id: expect.any(String), type: 'email', address: first },
      notification_rule: { id: expect.any(String), delay_seconds: 0 },
    });
    expect(await db('team_members').where({ team_id: teamId, user_id: added.json.id }).first()).toBeTruthy();

    const second = await klaxon([
      'user',
      'add',
      '--org',
      org.json.id,
      '--email',
      uniqueEmail('second'),
      '--password',
      'a long password',
      '--role',
      'MEMBER',
      '--json',
    ]);
    expect(second.json.paging).toBeNull();
    expect(await db('team_members').where({ team_id: teamId })).toHaveLength(1);
  });

  it('when a token is created, then it prints id, token, access and expiry, and list shows metadata only', async () => {
    const created = await klaxon(['token', 'create', '--org', orgId, '--user', adminEmail, '--access', 'READ_ONLY', '--days', '7', '--json']);
    expect(created.code).toBe(0);
    expect(Object.keys(created.json).sort()).toEqual(['access', 'expires_at', 'id', 'token']);
    expect(created.json.access).toBe('READ_ONLY');
    const list = await klaxon(['token', 'list', '--org', orgId, '--json']);
    expect(list.code).toBe(0);
    expect(list.json.tokens).toEqual([
      expect.objectContaining({ id: created.json.id, access: 'READ_ONLY', status: 'active', user: expect.objectContaining({ email: adminEmail }) }),
    ]);
    expect(list.stdout).not.toContain(created.json.token);
    const hash = (await knexOf(stack.orm)('api_tokens').where({ id: created.json.id }).first()).token_hash;
    expect(list.stdout).not.toContain(hash);
  });

  it('when a token is revoked, then the API refuses it at once and list says revoked', async () => {
    const created = await klaxon(['token', 'create', '--org', orgId, '--user', adminEmail, '--access', 'READ_WRITE', '--days', '30', '--json']);
    const url = `${stack.urls.app}/api/v1/organizations/${orgId}/incidents`;
    expect((await request('GET', url, { token: created.json.token })).status).toBe(200);
    const revoked = await klaxon(['token', 'revoke', created.json.id, '--json']);
    expect(revoked.json).toEqual({ id: created.json.id, revoked: true });
    expect((await request('GET', url, { token: created.json.token })).status).toBe(401);
    const list = await klaxon(['token', 'list', '--org', orgId, '--json']);
    expect(list.json.tokens.find((t: { id: string }) => t.id === created.json.id).status).toBe('revoked');
  });

  it.each([
    ['more than 30 days', (email: string) => ['--user', email, '--access', 'READ_ONLY', '--days', '31'], /--days: must be at most 30/],
    ['an unknown access level', (email: string) => ['--user', email, '--access', 'ADMIN', '--days', '1'], /--access: must be one of READ_ONLY, READ_WRITE/],
    ['someone outside the workspace', () => ['--user', 'nobody@example.test', '--access', 'READ_ONLY', '--days', '1'], /not a member/],
  ])('when asked for %s, then refused with a clear error and no token is stored', async (_name, args, message) => {
    const before = (await knexOf(stack.orm)('api_tokens').where({ organization_id: orgId })).length;
    const res = await klaxon(['token', 'create', '--org', orgId, ...args(adminEmail), '--json']);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(message);
    expect((await knexOf(stack.orm)('api_tokens').where({ organization_id: orgId })).length).toBe(before);
  });

  it('when the user is a Member or Team Manager, then token creation is refused', async () => {
    for (const role of ['MEMBER', 'TEAM_MANAGER']) {
      const email = uniqueEmail(role.toLowerCase());
      await klaxon(['user', 'add', '--org', orgId, '--email', email, '--password', 'a long password', '--role', role, '--json']);
      const res = await klaxon(['token', 'create', '--org', orgId, '--user', email, '--access', 'READ_ONLY', '--days', '1', '--json']);
      expect(res.code).not.toBe(0);
      expect(res.stderr).toMatch(/only an Account Admin or Billing Owner can create API tokens/);
    }
  });

  it('when the workspace plan has no API access, then token creation is refused', async () => {
    const free = await klaxon(['org', 'create', '--name', 'Free', '--plan', 'FREE', '--json']);
    const email = uniqueEmail('owner');
    await klaxon(['user', 'add', '--org', free.json.id, '--email', email, '--password', 'a long password', '--role', 'BILLING_OWNER', '--json']);
    const res = await klaxon(['token', 'create', '--org', free.json.id, '--user', email, '--access', 'READ_ONLY', '--days', '1', '--json']);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/FREE plan does not include API access/);
  });

  it('when a user is added --unverified, then the account is stored unverified', async () => {
    const email = uniqueEmail('unverified');
    const res = await klaxon(['user', 'add', '--org', orgId, '--email', email, '--password', 'a long password', '--role', 'MEMBER', '--unverified', '--json']);
    expect(res.json).toMatchObject({ email, verified: false });
  });

  it('when revoking an id that does not exist, then a clear error and a non-zero exit', async () => {
    const res = await klaxon(['token', 'revoke', '00000000-0000-4000-8000-000000000000']);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/not found/);
  });
});

describe('klaxon api and worker with a placeholder secret', () => {
  it.each(['api', 'worker'])('when KLAXON_SECRET is the old docker-compose placeholder, then `klaxon %s` stops at once, saying why', async (role) => {
    const placeholder = 'compose-development-secret-change-me-0123456789';
    const res = await klaxon([role], { KLAXON_SECRET: placeholder, TEMPORAL_ADDRESS: '127.0.0.1:1' });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/KLAXON_SECRET: is a placeholder from an example file: set a random value of your own/);
    expect(res.stderr + res.stdout).not.toContain(placeholder);
    expect(res.stdout).not.toContain('is running');
  });
});
