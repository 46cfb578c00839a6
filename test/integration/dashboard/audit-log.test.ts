import { klaxon } from '../../support/cli';
import { dashboardFixture, workspaceWithRoles } from '../../support/dashboard';

const fx = dashboardFixture();
/** What sign-up writes, done by the new owner: the ready workspace (src/services/workspace/ready-workspace.ts). */
const SIGN_UP_ACTIONS = ['team.create', 'team.member_add', 'escalation_policy.create', 'service.create', 'contact_method.create', 'notification_rule.create'];

describe('the audit log', () => {
  it('when an operator changes a workspace with the CLI, then the log shows it done by the system, newest first, with no secret in it', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const email = `cli-${Date.now()}@example.test`;
    const added = await klaxon(['user', 'add', '--org', ws.organizationId, '--email', email, '--password', 'hunter2hunter2', '--role', 'MEMBER', '--json']);
    expect(added.code).toBe(0);
    const key = await klaxon(['apikey', 'create', '--org', ws.organizationId, '--user', email, '--name', 'deploy bot', '--json']);
    expect(key.code).toBe(0);

    const res = await fx.api('GET', '/audit-log', { session: ws.owner });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const [newest, older] = res.body.data;
    expect(newest).toMatchObject({
      actor: { kind: 'system', user_id: null, label: 'system (klaxon CLI)' },
      action: 'api_key.create',
      target: { type: 'api_key', id: key.json.id },
      ip: null,
      details: { user: email, name: 'deploy bot' },
    });
    expect(older).toMatchObject({ action: 'member.add', actor: { kind: 'system' }, details: { email, role: 'MEMBER' } });
    expect(Date.parse(newest.at)).toBeGreaterThanOrEqual(Date.parse(older.at));
    // The CLI's two entries, after the six of sign-up's ready workspace.
    expect(res.body.meta).toEqual({ total: 2 + SIGN_UP_ACTIONS.length, limit: 50, offset: 0 });
    expect(JSON.stringify(res.body)).not.toContain(key.json.key);
    expect(JSON.stringify(res.body)).not.toContain('hunter2');

    const onlyKeys = await fx.api('GET', '/audit-log?action=api_key.create', { session: ws.owner });
    expect(onlyKeys.body.data.map((e: { action: string }) => e.action)).toEqual(['api_key.create']);
  });

  it.each([
    ['BILLING_OWNER', 200],
    ['ACCOUNT_ADMIN', 200],
    ['TEAM_MANAGER', 403],
    ['MEMBER', 403],
  ] as const)('when a %s reads the log, then the answer is %i', async (role, status) => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const res = await fx.api('GET', '/audit-log', { session: ws.as[role] });
    expect(res.status).toBe(status);
    if (status === 403) expect(res.body).toMatchObject({ success: false, code: 'forbidden' });
  });

  it('when another workspace changed something, then it is not in this workspace’s log', async () => {
    const mine = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const theirs = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    expect((await klaxon(['apikey', 'create', '--org', theirs.organizationId, '--user', theirs.owner.email, '--json'])).code).toBe(0);
    const res = await fx.api('GET', '/audit-log', { session: mine.owner });
    expect(res.body.data.map((e: { action: string }) => e.action).sort()).toEqual([...SIGN_UP_ACTIONS].sort());
    expect(res.body.data.every((e: { actor: { user_id: string } }) => e.actor.user_id === mine.owner.userId)).toBe(true);
  });

  it('when the query is bad, then it is 400 naming the parameter', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const res = await fx.api('GET', '/audit-log?limit=0', { session: ws.owner });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('limit');
    const unknown = await fx.api('GET', '/audit-log?colour=red', { session: ws.owner });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toContain('colour');
  });
});
