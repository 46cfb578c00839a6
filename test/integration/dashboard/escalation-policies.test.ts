import type { Role } from '../../../src/domain/roles';
import { setServicePolicy } from '../../../src/services/paging/escalation-policies';
import { createService } from '../../../src/services/workspace/catalog';
import { createTeam } from '../../../src/services/workspace/workspaces';
import { ALL_ROLES, dashboardFixture, expectDashboardError, type DashboardSession, workspaceWithRoles } from '../../support/dashboard';
import { rowCount, seedWorkspace } from '../../support/workspace';

const fx = dashboardFixture();
const { api } = fx;
const ROLES = ALL_ROLES;
const MANAGERS = new Set<Role>(['BILLING_OWNER', 'ACCOUNT_ADMIN']);

type Workspace = Awaited<ReturnType<typeof workspaceWithRoles>>;
let ws: Workspace;
beforeAll(async () => {
  ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
});

const expectError = expectDashboardError;
const steps = (userId: string, delay = 60) => [{ delay_seconds: delay, targets: [{ type: 'user', id: userId }] }];
const create = (session: DashboardSession, body: Record<string, unknown>) => api('POST', '/escalation-policies', { session, body });
const policies = () => rowCount(fx.stack.orm, 'escalation_policies');
const auditOf = async (action: string) => (await api('GET', `/audit-log?action=${action}`, { session: ws.owner })).body.data as any[];

describe('escalation policies by role', () => {
  it.each(ROLES)('when a %s creates, changes and deletes a policy, then only Billing Owners and Account Admins may; every member may read', async (role) => {
    const session = ws.as[role];
    const res = await create(session, { name: `Primary ${role}`, steps: steps(ws.as.MEMBER.userId) });
    const existing = (await create(ws.owner, { name: `Existing ${role}`, steps: steps(ws.owner.userId) })).body.data;
    const put = await api('PUT', `/escalation-policies/${existing.id}`, { session, body: { repeat: 2 } });
    const del = await api('DELETE', `/escalation-policies/${existing.id}`, { session });
    if (MANAGERS.has(role)) {
      expect([res.status, put.status, del.status]).toEqual([201, 200, 200]);
    } else {
      for (const r of [res, put, del]) expectError(r, 403, 'forbidden');
    }
    const list = await api('GET', '/escalation-policies', { session });
    expect(list.status).toBe(200);
    expect((await api('GET', `/escalation-policies/${list.body.data[0].id}`, { session })).status).toBe(200);
  });
});

describe('escalation policies', () => {
  it('when an admin creates, reads, changes and deletes a policy, then each answer is the policy as stored and each change is audited', async () => {
    const teamId = (await createTeam(fx.stack.orm, { organizationId: ws.organizationId, name: 'Ops' })).id;
    const body = {
      name: 'Checkout',
      steps: [
        {
          delay_seconds: 300,
          targets: [
            { type: 'user', id: ws.as.MEMBER.userId },
            { type: 'team', id: teamId },
          ],
        },
      ],
      repeat: 1,
      ack_timeout_seconds: 900,
    };
    const created = await create(ws.as.ACCOUNT_ADMIN, body);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ success: true, data: { id: expect.any(String), ...body } });
    const id = created.body.data.id;

    expect((await api('GET', `/escalation-policies/${id}`, { session: ws.as.MEMBER })).body.data).toEqual(created.body.data);
    const changed = await api('PUT', `/escalation-policies/${id}`, { session: ws.as.ACCOUNT_ADMIN, body: { name: 'Checkout v2', ack_timeout_seconds: null } });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toEqual({ ...created.body.data, name: 'Checkout v2', ack_timeout_seconds: null });
    const listed = (await api('GET', '/escalation-policies', { session: ws.as.MEMBER })).body.data.find((p: { id: string }) => p.id === id);
    expect(listed).toEqual({ ...changed.body.data, service_ids: [] });

    expect((await api('DELETE', `/escalation-policies/${id}`, { session: ws.as.ACCOUNT_ADMIN })).body.data).toEqual({ id, deleted: true });
    expectError(await api('GET', `/escalation-policies/${id}`, { session: ws.owner }), 404, 'not_found');

    const [c] = (await auditOf('escalation_policy.create')).filter((e) => e.target.id === id);
    expect(c).toMatchObject({
      actor: { kind: 'user', user_id: ws.as.ACCOUNT_ADMIN.userId },
      target: { type: 'escalation_policy', id },
      details: { name: 'Checkout', steps: 1, repeat: 1, ack_timeout_seconds: 900 },
    });
    const [u] = (await auditOf('escalation_policy.update')).filter((e) => e.target.id === id);
    expect(u.details).toMatchObject({ name: 'Checkout v2', changed: ['name', 'ack_timeout_seconds'] });
    expect((await auditOf('escalation_policy.delete')).filter((e) => e.target.id === id)).toHaveLength(1);
  });

  it('when a service pages with the policy, then deleting it is 409 policy_in_use naming the service, and it goes once the service moves on', async () => {
    const team = await createTeam(fx.stack.orm, { organizationId: ws.organizationId, name: 'Payments' });
    const service = await createService(fx.stack.orm, { organizationId: ws.organizationId, teamId: team.id, name: 'Billing API' });
    const { id } = (await create(ws.owner, { name: 'Billing', steps: steps(ws.owner.userId) })).body.data;
    await setServicePolicy(fx.stack.orm, { serviceId: service.id, policyId: id });
    expect((await api('GET', '/escalation-policies', { session: ws.owner })).body.data.find((p: { id: string }) => p.id === id).service_ids).toEqual([
      service.id,
    ]);

    const refused = await api('DELETE', `/escalation-policies/${id}`, { session: ws.owner });
    expectError(refused, 409, 'policy_in_use', /Billing API/);
    expect((await api('GET', `/escalation-policies/${id}`, { session: ws.owner })).status).toBe(200);
    expect((await auditOf('escalation_policy.delete')).filter((e) => e.target.id === id)).toEqual([]);

    await setServicePolicy(fx.stack.orm, { serviceId: service.id, policyId: null });
    expect((await api('DELETE', `/escalation-policies/${id}`, { session: ws.owner })).status).toBe(200);
  });

  it('when a step targets a user, schedule or team of another workspace, then 400 unknown_target naming where it sits, and nothing is written', async () => {
    const other = await seedWorkspace(fx.stack.orm);
    const before = await policies();
    for (const target of [
      { type: 'user', id: other.admin.id },
      { type: 'team', id: other.teamId },
    ]) {
      const res = await create(ws.owner, { name: 'Foreign', steps: [{ delay_seconds: 60, targets: [{ type: 'user', id: ws.owner.userId }, target] }] });
      expectError(res, 400, 'unknown_target', new RegExp(`^steps\\[0\\]\\.targets\\[1\\]: ${target.type} ${target.id} is not`));
    }
    const { id } = (await create(ws.owner, { name: 'Mine', steps: steps(ws.owner.userId) })).body.data;
    const put = await api('PUT', `/escalation-policies/${id}`, { session: ws.owner, body: { steps: steps(other.admin.id) } });
    expectError(put, 400, 'unknown_target', /^steps\[0\]\.targets\[0\]: user .* is not a member of this workspace/);
    expect(await policies()).toBe(before + 1);
    expect((await api('GET', `/escalation-policies/${id}`, { session: ws.owner })).body.data.steps).toEqual(steps(ws.owner.userId));
  });

  it.each([
    ['an unknown field', { name: 'X', steps: [], extra: 1 }, /extra|Unrecognized key/],
    ['a name that is too long', { name: 'n'.repeat(256), steps: [{ delay_seconds: 60, targets: [] }] }, /^name: /],
    [
      'repeat of the wrong type',
      { name: 'X', steps: [{ delay_seconds: 60, targets: [{ type: 'user', id: '00000000-0000-4000-8000-000000000000' }] }], repeat: '2' },
      /^repeat: /,
    ],
    ['a step without targets', { name: 'X', steps: [{ delay_seconds: 60, targets: [] }] }, /^steps\.0\.targets: /],
    [
      'a target of an unknown type',
      { name: 'X', steps: [{ delay_seconds: 60, targets: [{ type: 'robot', id: '00000000-0000-4000-8000-000000000000' }] }] },
      /^steps\.0\.targets\.0\.type: /,
    ],
    [
      'an ack timeout of 0',
      { name: 'X', steps: [{ delay_seconds: 60, targets: [{ type: 'user', id: '00000000-0000-4000-8000-000000000000' }] }], ack_timeout_seconds: 0 },
      /^ack_timeout_seconds: /,
    ],
  ])('when the body has %s, then 400 naming the field and nothing is written', async (_what, body, error) => {
    const before = await policies();
    expectError(await create(ws.owner, body), 400, 'invalid_request', error);
    expect(await policies()).toBe(before);
  });

  it('when a state-changing request has no X-CSRF-Token, then 403 csrf_failed and nothing changes', async () => {
    const { id } = (await create(ws.owner, { name: 'Guarded', steps: steps(ws.owner.userId) })).body.data;
    const before = await policies();
    expectError(
      await api('POST', '/escalation-policies', { session: ws.owner, csrf: null, body: { name: 'No CSRF', steps: steps(ws.owner.userId) } }),
      403,
      'csrf_failed',
    );
    expectError(await api('PUT', `/escalation-policies/${id}`, { session: ws.owner, csrf: null, body: { name: 'Renamed' } }), 403, 'csrf_failed');
    expectError(await api('DELETE', `/escalation-policies/${id}`, { session: ws.owner, csrf: null }), 403, 'csrf_failed');
    expect(await policies()).toBe(before);
    expect((await api('GET', `/escalation-policies/${id}`, { session: ws.owner })).body.data.name).toBe('Guarded');
  });

  it('when a policy of another workspace is asked for, changed or deleted, then 404 and it is untouched', async () => {
    const other = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const { id } = (await create(other.owner, { name: 'Theirs', steps: steps(other.owner.userId) })).body.data;
    expectError(await api('GET', `/escalation-policies/${id}`, { session: ws.owner }), 404, 'not_found');
    expectError(await api('PUT', `/escalation-policies/${id}`, { session: ws.owner, body: { name: 'Mine now' } }), 404, 'not_found');
    expectError(await api('DELETE', `/escalation-policies/${id}`, { session: ws.owner }), 404, 'not_found');
    expect((await api('GET', `/escalation-policies/${id}`, { session: other.owner })).body.data.name).toBe('Theirs');
    expect((await api('GET', '/escalation-policies', { session: ws.owner })).body.data.map((p: { id: string }) => p.id)).not.toContain(id);
  });
});

describe('the OpenAPI document', () => {
  it('when it is fetched, then every paging route is described with its body and answers', async () => {
    const doc = (await api('GET', '/openapi.json')).body;
    const expected: Array<[string, string]> = [
      ['/api/escalation-policies', 'post'],
      ['/api/escalation-policies/{id}', 'put'],
      ['/api/escalation-policies/{id}', 'delete'],
      ['/api/schedules', 'post'],
      ['/api/schedules/{id}/on-call', 'get'],
      ['/api/schedules/{id}/overrides', 'post'],
      ['/api/schedules/{id}/overrides/{override_id}', 'delete'],
      ['/api/contact-methods', 'post'],
      ['/api/contact-methods/{id}/verify', 'post'],
      ['/api/contact-methods/{id}/resend', 'post'],
      ['/api/notification-rules', 'post'],
      ['/api/notification-rules/{id}', 'delete'],
    ];
    for (const [path, method] of expected) {
      const op = doc.paths[path]?.[method];
      expect([path, method, Boolean(op?.responses?.['200'] ?? op?.responses?.['201'])]).toEqual([path, method, true]);
    }
    expect(doc.paths['/api/contact-methods/{id}/resend'].post.responses['429']).toBeDefined();
  });
});
