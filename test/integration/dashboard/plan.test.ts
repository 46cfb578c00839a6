import { knexOf } from '../../../src/db/knex';
import { createTeam, createService, setPlan } from '../../../src/services/workspace';
import { createSource } from '../../../src/services/ingest/sources';
import { nextPeriodStart, usagePeriod } from '../../../src/domain/plans';
import { ALL_ROLES, dashboard, dashboardFixture, expectDashboardError, workspaceWithRoles } from '../../support/dashboard';
import { klaxon } from '../../support/cli';
import { startTestStack, type TestStack } from '../../support/stack';

const fx = dashboardFixture();
const { api } = fx;
const db = () => knexOf(fx.stack.orm);
const expectError = expectDashboardError;
const ROLES = ALL_ROLES;
const planOf = async (orgId: string) => (await db()('organizations').select('plan').where({ id: orgId }).first()).plan;

describe('GET /api/plan', () => {
  it.each(ROLES)('when a %s reads the plan, then they see the FREE limits and this month’s usage', async (role) => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    await db()('plan_usage').insert({ organization_id: ws.organizationId, period: usagePeriod(new Date()), alerts: 17 });
    await db()('plan_usage').insert({ organization_id: ws.organizationId, period: '2001-01', alerts: 40 });
    await api('POST', '/invitations', { session: ws.owner, body: { email: `p-${Date.now()}@example.test`, role: 'MEMBER' } });
    const res = await api('GET', '/plan', { session: ws.as[role] });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      plan: 'FREE',
      limits: { users: 5, sources: 3, alerts_per_month: 50, sms_per_user_per_month: 0, voice_per_user_per_month: 0, history_days: 7, api_access: false },
      usage: { users: 4, pending_invitations: 1, sources: 0, alerts_this_month: 17, alerts_limit: 50, resets_at: nextPeriodStart(new Date()).toISOString() },
    });
  });

  it('when no alert was counted this month, then alerts_this_month is 0 and resets_at is the first instant of next month (UTC)', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const res = await api('GET', '/plan', { session: ws.as.MEMBER });
    expect(res.body.data.usage.alerts_this_month).toBe(0);
    expect(nextPeriodStart(new Date('2026-12-31T23:59:59.999Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(nextPeriodStart(new Date('2026-02-01T00:00:00.000Z')).toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(usagePeriod(new Date('2026-02-28T23:00:00.000Z'))).toBe('2026-02');
  });
});

describe('PUT /api/plan', () => {
  it.each(ROLES)('when a %s moves the plan down, then only the Billing Owner may, and GET /api/plan shows it', async (role) => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    await setPlan(fx.stack.orm, ws.organizationId, 'BUSINESS');
    const res = await api('PUT', '/plan', { session: ws.as[role], body: { plan: 'PRO' } });
    if (role === 'BILLING_OWNER') {
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ plan: 'PRO', limits: { users: null, api_access: true }, usage: { alerts_limit: null } });
      expect(res.body.message).toContain('BUSINESS to PRO');
      expect((await api('GET', '/plan', { session: ws.as.MEMBER })).body.data.plan).toBe('PRO');
    } else {
      expectError(res, 403, 'forbidden');
      expect(await planOf(ws.organizationId)).toBe('BUSINESS');
    }
  });

  it.each(['STARTER', 'PRO', 'BUSINESS'])(
    'when a Billing Owner raises FREE to %s with no billing set up, then 403 billing_not_configured and nothing changes',
    async (plan) => {
      const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
      const res = await api('PUT', '/plan', { session: ws.owner, body: { plan } });
      expectError(res, 403, 'billing_not_configured', /needs billing.*klaxon org plan/);
      expect(await planOf(ws.organizationId)).toBe('FREE');
      expect((await api('GET', '/audit-log?action=plan.change', { session: ws.owner })).body.data).toEqual([]);
    },
  );

  it('when the operator changes the plan with klaxon org plan, then it moves either way and the log says the system did it', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const up = await klaxon(['org', 'plan', '--org', ws.organizationId, '--plan', 'business', '--json']);
    expect(up.code).toBe(0);
    expect(up.json).toEqual({ organization_id: ws.organizationId, from: 'FREE', plan: 'BUSINESS', changed: true, over_limits: [] });
    expect(await planOf(ws.organizationId)).toBe('BUSINESS');
    const log = await api('GET', '/audit-log?action=plan.change', { session: ws.owner });
    expect(log.body.data).toEqual([expect.objectContaining({ actor: expect.objectContaining({ kind: 'system' }), details: { from: 'FREE', to: 'BUSINESS' } })]);
    const bad = await klaxon(['org', 'plan', '--org', ws.organizationId, '--plan', 'GOLD', '--json']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--plan: must be one of FREE, STARTER, PRO, BUSINESS/);
    expect(await planOf(ws.organizationId)).toBe('BUSINESS');
  });

  it('when the plan changes, then it is audited with from and to', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    await setPlan(fx.stack.orm, ws.organizationId, 'BUSINESS');
    await api('PUT', '/plan', { session: ws.owner, body: { plan: 'STARTER' } });
    const log = await api('GET', '/audit-log?action=plan.change', { session: ws.as.ACCOUNT_ADMIN });
    expect(log.body.data).toEqual([
      expect.objectContaining({
        actor: expect.objectContaining({ user_id: ws.owner.userId }),
        target: { type: 'organization', id: ws.organizationId },
        details: { from: 'BUSINESS', to: 'STARTER' },
      }),
    ]);
  });

  it('when a downgrade goes below current usage, then it is allowed, the answer says what is over, what exists stays and new creations are refused', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    await setPlan(fx.stack.orm, ws.organizationId, 'STARTER');
    const team = await createTeam(fx.stack.orm, { organizationId: ws.organizationId, name: 'Core' });
    const service = await createService(fx.stack.orm, { organizationId: ws.organizationId, teamId: team.id, name: 'api' });
    for (let i = 0; i < 4; i++)
      await createSource(fx.stack.orm, { organizationId: ws.organizationId, serviceId: service.id, name: `s${i}`, ingestBaseUrl: 'http://x' });
    const res = await api('PUT', '/plan', { session: ws.owner, body: { plan: 'FREE' } });
    expect(res.status).toBe(200);
    expect(res.body.data.usage.sources).toBe(4);
    expect(res.body.message).toMatch(/alert sources \(4, limit 3\)/);
    expect(res.body.message).toContain('plan_limit_reached');
    expect(await db()('alert_sources').where({ organization_id: ws.organizationId, status: 'ACTIVE' })).toHaveLength(4);
    await expect(
      createSource(fx.stack.orm, { organizationId: ws.organizationId, serviceId: service.id, name: 's5', ingestBaseUrl: 'http://x' }),
    ).rejects.toMatchObject({ code: 'plan_limit_reached' });
  });

  it('when the body is bad or there is no X-CSRF-Token, then it is 400 naming the field or 403 csrf_failed and the plan is unchanged', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    for (const [body, field] of [
      [{ plan: 'ENTERPRISE' }, 'plan'],
      [{ plan: 3 }, 'plan'],
      [{ plan: 'PRO', discount: 100 }, 'discount'],
    ] as const) {
      const res = await api('PUT', '/plan', { session: ws.owner, body });
      expectError(res, 400, 'invalid_request');
      expect(res.body.error).toContain(field);
    }
    expectError(await api('PUT', '/plan', { session: ws.owner, csrf: null, body: { plan: 'PRO' } }), 403, 'csrf_failed');
    expect(await planOf(ws.organizationId)).toBe('FREE');
    expect((await api('GET', '/audit-log?action=plan.change', { session: ws.owner })).body.data).toEqual([]);
  });
});

describe('PUT /api/plan where the operator lets workspaces raise their plan (PLAN_SELF_SERVE=true)', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ worker: false, env: { PLAN_SELF_SERVE: 'true' } });
  });
  afterAll(() => stack?.stop());

  it('when a Billing Owner raises FREE to PRO, then it is allowed', async () => {
    const ws = await workspaceWithRoles(stack.urls.app, stack.orm);
    const res = await dashboard(stack.urls.app, 'PUT', '/plan', { session: ws.owner, body: { plan: 'PRO' } });
    expect(res.status).toBe(200);
    expect(res.body.message).toContain('FREE to PRO');
  });
});
