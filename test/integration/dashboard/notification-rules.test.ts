import type { Role } from '../../../src/domain/roles';
import { ALL_ROLES, dashboardFixture, expectDashboardError, memberSession, type DashboardSession, workspaceWithRoles } from '../../support/dashboard';
import { rowCount } from '../../support/workspace';

const fx = dashboardFixture();
const { api } = fx;
const ROLES = ALL_ROLES;
const ADMINS = new Set<Role>(['BILLING_OWNER', 'ACCOUNT_ADMIN']);

let ws: Awaited<ReturnType<typeof workspaceWithRoles>>;
beforeAll(async () => {
  ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
});

const expectError = expectDashboardError;
let n = 0;
/** An email contact method of the session's user (verified at once). */
const emailOf = async (session: DashboardSession) => {
  const res = await api('POST', '/contact-methods', { session, body: { type: 'email', address: `inbox-${++n}-${session.email}` } });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
};
const addRule = (session: DashboardSession, body: Record<string, unknown>) => api('POST', '/notification-rules', { session, body });
const rules = () => rowCount(fx.stack.orm, 'notification_rules');
const auditOf = async (action: string) => (await api('GET', `/audit-log?action=${action}`, { session: ws.owner })).body.data as any[];

describe('notification rules by role', () => {
  it.each(ROLES)('when a %s manages rules, then their own always; another member’s only as an admin', async (role) => {
    const session = ws.as[role];
    const mine = await addRule(session, { contact_method_id: await emailOf(session), delay_seconds: 0 });
    expect(mine.status).toBe(201);
    expect((await api('GET', '/notification-rules', { session })).body.data.map((r: { id: string }) => r.id)).toContain(mine.body.data.id);
    expect((await api('DELETE', `/notification-rules/${mine.body.data.id}`, { session })).status).toBe(200);

    const other = await memberSession(fx.stack.urls.app, fx.stack.orm, ws.organizationId, 'MEMBER');
    const theirMethod = await emailOf(other);
    const theirRule = (await addRule(other, { contact_method_id: theirMethod, delay_seconds: 0 })).body.data;
    const answers = [
      await addRule(session, { contact_method_id: theirMethod, delay_seconds: 120 }),
      await api('GET', `/notification-rules?user_id=${other.userId}`, { session }),
      await api('DELETE', `/notification-rules/${theirRule.id}`, { session }),
    ];
    if (ADMINS.has(role)) {
      expect(answers.map((a) => a.status)).toEqual([201, 200, 200]);
      // The rule belongs to the method's owner, whoever added it.
      expect(answers[0].body.data).toMatchObject({ user_id: other.userId, contact_method_id: theirMethod, delay_seconds: 120 });
    } else {
      for (const a of answers) expectError(a, 403, 'forbidden');
      expect((await api('GET', '/notification-rules', { session: other })).body.data.map((r: { id: string }) => r.id)).toEqual([theirRule.id]);
    }
  });
});

describe('notification rules', () => {
  it('when a member adds rules, then they list in firing order and each change is audited', async () => {
    const me = ws.as.MEMBER;
    const method = await emailOf(me);
    const later = (await addRule(me, { contact_method_id: method, delay_seconds: 300 })).body.data;
    const now = (await addRule(me, { contact_method_id: method, delay_seconds: 0 })).body.data;
    expect(later).toEqual({ id: expect.any(String), user_id: me.userId, contact_method_id: method, delay_seconds: 300 });
    const listed = (await api('GET', '/notification-rules', { session: me })).body.data.filter(
      (r: { contact_method_id: string }) => r.contact_method_id === method,
    );
    expect(listed).toEqual([now, later]);
    expectError(await addRule(me, { contact_method_id: method, delay_seconds: 300 }), 409, 'duplicate_notification_rule');

    expect((await api('DELETE', `/notification-rules/${later.id}`, { session: me })).body.data).toEqual({ id: later.id, removed: true });
    expectError(await api('DELETE', `/notification-rules/${later.id}`, { session: me }), 404, 'not_found');
    expect((await auditOf('notification_rule.create')).find((e) => e.target.id === later.id)).toMatchObject({
      actor: { user_id: me.userId },
      target: { type: 'notification_rule', id: later.id },
      details: { user_id: me.userId, contact_method_id: method, type: 'email', delay_seconds: 300 },
    });
    expect((await auditOf('notification_rule.delete')).filter((e) => e.target.id === later.id)).toHaveLength(1);
  });

  it.each([
    ['a delay over an hour', { delay_seconds: 3601 }, /^delay_seconds: /],
    ['a negative delay', { delay_seconds: -1 }, /^delay_seconds: /],
    ['a delay of the wrong type', { delay_seconds: '60' }, /^delay_seconds: must be a number/],
    ['a fractional delay', { delay_seconds: 1.5 }, /^delay_seconds: must be a whole number/],
    ['an unknown field', { delay_seconds: 0, channel: 'sms' }, /Unrecognized key/],
    ['a contact method id that is not a UUID', { delay_seconds: 0, contact_method_id: 'x'.repeat(300) }, /^contact_method_id: must be a UUID/],
  ])('when the body has %s, then 400 naming the field and nothing is written', async (_what, body, error) => {
    const method = await emailOf(ws.as.MEMBER);
    const before = await rules();
    expectError(await addRule(ws.as.MEMBER, { contact_method_id: method, ...body }), 400, 'invalid_request', error);
    expect(await rules()).toBe(before);
  });

  it('when a state-changing request has no X-CSRF-Token, then 403 csrf_failed and nothing changes', async () => {
    const method = await emailOf(ws.as.MEMBER);
    const rule = (await addRule(ws.as.MEMBER, { contact_method_id: method, delay_seconds: 0 })).body.data;
    const before = await rules();
    expectError(
      await api('POST', '/notification-rules', { session: ws.as.MEMBER, csrf: null, body: { contact_method_id: method, delay_seconds: 60 } }),
      403,
      'csrf_failed',
    );
    expectError(await api('DELETE', `/notification-rules/${rule.id}`, { session: ws.as.MEMBER, csrf: null }), 403, 'csrf_failed');
    expect(await rules()).toBe(before);
  });

  it('when another workspace’s contact method, rule or member is named, then 404 and nothing changes', async () => {
    const other = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const theirMethod = await emailOf(other.owner);
    const theirRule = (await addRule(other.owner, { contact_method_id: theirMethod, delay_seconds: 0 })).body.data;
    const before = await rules();
    expectError(await addRule(ws.owner, { contact_method_id: theirMethod, delay_seconds: 60 }), 404, 'not_found');
    expectError(await api('DELETE', `/notification-rules/${theirRule.id}`, { session: ws.owner }), 404, 'not_found');
    expectError(await api('GET', `/notification-rules?user_id=${other.owner.userId}`, { session: ws.owner }), 404, 'not_found');
    expect(await rules()).toBe(before);
  });
});
