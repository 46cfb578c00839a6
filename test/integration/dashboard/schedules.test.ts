import type { Role } from '../../../src/domain/roles';
import { ALL_ROLES, dashboardFixture, expectDashboardError, type DashboardSession, workspaceWithRoles } from '../../support/dashboard';
import { rowCount } from '../../support/workspace';

const fx = dashboardFixture();
const { api } = fx;
const ROLES = ALL_ROLES;
const MANAGERS = new Set<Role>(['BILLING_OWNER', 'ACCOUNT_ADMIN']);

let ws: Awaited<ReturnType<typeof workspaceWithRoles>>;
beforeAll(async () => {
  ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
});

const expectError = expectDashboardError;
/** Ann and Bob take turns daily at 09:00 Berlin time, Ann first from 1 December 2026. */
const daily = () => [
  {
    name: 'Primary',
    users: [ws.as.MEMBER.email, ws.as.TEAM_MANAGER.userId],
    rotation: { unit: 'days', length: 1 },
    handoff_time: '09:00',
    start: '2026-12-01',
  },
];
const create = (session: DashboardSession, body: Record<string, unknown> = { name: 'Primary', time_zone: 'Europe/Berlin', layers: daily() }) =>
  api('POST', '/schedules', { session, body });
const auditOf = async (action: string) => (await api('GET', `/audit-log?action=${action}`, { session: ws.owner })).body.data as any[];

describe('schedules by role', () => {
  it.each(ROLES)(
    'when a %s creates, changes and deletes a schedule or an override, then only Billing Owners and Account Admins may; every member may read',
    async (role) => {
      const session = ws.as[role];
      const existing = (await create(ws.owner)).body.data;
      const override = (
        await api('POST', `/schedules/${existing.id}/overrides`, {
          session: ws.owner,
          body: { email: ws.owner.email, from: '2026-12-24T00:00:00Z', to: '2026-12-25T00:00:00Z' },
        })
      ).body.data;
      const answers = [
        await create(session),
        await api('PUT', `/schedules/${existing.id}`, { session, body: { name: 'Renamed' } }),
        await api('POST', `/schedules/${existing.id}/overrides`, {
          session,
          body: { user_id: session.userId, from: '2026-12-26T00:00:00Z', to: '2026-12-27T00:00:00Z' },
        }),
        await api('DELETE', `/schedules/${existing.id}/overrides/${override.id}`, { session }),
        await api('DELETE', `/schedules/${existing.id}`, { session }),
      ];
      if (MANAGERS.has(role)) expect(answers.map((a) => a.status)).toEqual([201, 200, 201, 200, 200]);
      else for (const a of answers) expectError(a, 403, 'forbidden');
      const readable = (await create(ws.owner)).body.data.id;
      for (const path of ['/schedules', `/schedules/${readable}`, `/schedules/${readable}/on-call`, `/schedules/${readable}/overrides`]) {
        expect([path, (await api('GET', path, { session })).status]).toEqual([path, 200]);
      }
    },
  );
});

describe('schedules', () => {
  it('when an admin creates a schedule, then layer users are stored as ids, on-call names who is on and the next hand-off, and changes are audited', async () => {
    const created = await create(ws.as.ACCOUNT_ADMIN);
    expect(created.status).toBe(201);
    const s = created.body.data;
    expect(s).toEqual({
      id: expect.any(String),
      organization_id: ws.organizationId,
      name: 'Primary',
      time_zone: 'Europe/Berlin',
      layers: [
        {
          name: 'Primary',
          users: [ws.as.MEMBER.userId, ws.as.TEAM_MANAGER.userId],
          rotation: { unit: 'days', length: 1 },
          handoff_time: '09:00',
          start: '2026-12-01',
        },
      ],
    });
    expect((await api('GET', `/schedules/${s.id}`, { session: ws.as.MEMBER })).body.data).toEqual(s);

    // 2 Dec, 12:00 Berlin (11:00Z): Bob's day, until 3 Dec 09:00 Berlin (08:00Z) when Ann takes over.
    const onCall = await api('GET', `/schedules/${s.id}/on-call?at=2026-12-02T11:00:00Z`, { session: ws.as.MEMBER });
    expect(onCall.body.data).toEqual({
      at: '2026-12-02T11:00:00.000Z',
      users: [{ id: ws.as.TEAM_MANAGER.userId, email: ws.as.TEAM_MANAGER.email }],
      next_handoff: { at: '2026-12-03T08:00:00.000Z', users: [{ id: ws.as.MEMBER.userId, email: ws.as.MEMBER.email }] },
    });

    const changed = await api('PUT', `/schedules/${s.id}`, { session: ws.as.ACCOUNT_ADMIN, body: { name: 'Weekend', time_zone: 'UTC' } });
    expect(changed.body.data).toEqual({ ...s, name: 'Weekend', time_zone: 'UTC' });
    expect((await api('DELETE', `/schedules/${s.id}`, { session: ws.as.ACCOUNT_ADMIN })).body.data).toEqual({ id: s.id, deleted: true });
    expectError(await api('GET', `/schedules/${s.id}`, { session: ws.owner }), 404, 'not_found');

    const mine = async (action: string) => (await auditOf(action)).filter((e) => e.target.id === s.id);
    expect(await mine('schedule.create')).toEqual([
      expect.objectContaining({
        actor: expect.objectContaining({ user_id: ws.as.ACCOUNT_ADMIN.userId }),
        details: { name: 'Primary', time_zone: 'Europe/Berlin', layers: 1 },
      }),
    ]);
    expect((await mine('schedule.update'))[0].details).toMatchObject({ name: 'Weekend', changed: ['name', 'time_zone'] });
    expect(await mine('schedule.delete')).toHaveLength(1);
  });

  it('when an override is added by email or user id, then it wins over the layers until removed, and both changes are audited', async () => {
    const s = (await create(ws.owner)).body.data;
    const at = '/on-call?at=2026-12-02T11:00:00Z';
    const byEmail = await api('POST', `/schedules/${s.id}/overrides`, {
      session: ws.owner,
      body: { email: ws.as.ACCOUNT_ADMIN.email, from: '2026-12-02T10:00:00Z', to: '2026-12-02T14:00:00+01:00' },
    });
    expect(byEmail.status).toBe(201);
    expect(byEmail.body.data).toEqual({
      id: expect.any(String),
      schedule_id: s.id,
      user_id: ws.as.ACCOUNT_ADMIN.userId,
      from: '2026-12-02T10:00:00.000Z',
      to: '2026-12-02T13:00:00.000Z',
    });
    const onCall = (await api('GET', `/schedules/${s.id}${at}`, { session: ws.as.MEMBER })).body.data;
    expect(onCall.users).toEqual([{ id: ws.as.ACCOUNT_ADMIN.userId, email: ws.as.ACCOUNT_ADMIN.email }]);
    expect(onCall.next_handoff).toEqual({ at: '2026-12-02T13:00:00.000Z', users: [{ id: ws.as.TEAM_MANAGER.userId, email: ws.as.TEAM_MANAGER.email }] });

    const byId = await api('POST', `/schedules/${s.id}/overrides`, {
      session: ws.owner,
      body: { user_id: ws.owner.userId, from: '2030-01-01T00:00:00Z', to: '2030-01-02T00:00:00Z' },
    });
    expect(byId.body.data.user_id).toBe(ws.owner.userId);
    const listed = (await api('GET', `/schedules/${s.id}/overrides`, { session: ws.as.MEMBER })).body.data;
    expect(listed.map((o: { id: string }) => o.id)).toEqual([byEmail.body.data.id, byId.body.data.id]);
    expect(listed[0].email).toBe(ws.as.ACCOUNT_ADMIN.email);

    expect((await api('DELETE', `/schedules/${s.id}/overrides/${byEmail.body.data.id}`, { session: ws.owner })).status).toBe(200);
    expect((await api('GET', `/schedules/${s.id}${at}`, { session: ws.owner })).body.data.users).toEqual([
      { id: ws.as.TEAM_MANAGER.userId, email: ws.as.TEAM_MANAGER.email },
    ]);
    expectError(await api('DELETE', `/schedules/${s.id}/overrides/${byEmail.body.data.id}`, { session: ws.owner }), 404, 'not_found');

    const created = (await auditOf('schedule_override.create')).find((e) => e.target.id === byEmail.body.data.id);
    expect(created.details).toEqual({
      schedule_id: s.id,
      schedule: 'Primary',
      user_id: ws.as.ACCOUNT_ADMIN.userId,
      from: '2026-12-02T10:00:00.000Z',
      to: '2026-12-02T13:00:00.000Z',
    });
    expect((await auditOf('schedule_override.delete')).filter((e) => e.target.id === byEmail.body.data.id)).toHaveLength(1);
  });

  it.each([
    ['to before from', { email: 'x@example.test', from: '2026-12-02T10:00:00Z', to: '2026-12-02T09:00:00Z' }, /^to: must be after from/],
    ['to equal to from', { email: 'x@example.test', from: '2026-12-02T10:00:00Z', to: '2026-12-02T10:00:00Z' }, /^to: must be after from/],
    [
      'both user_id and email',
      { email: 'x@example.test', user_id: '00000000-0000-4000-8000-000000000000', from: '2026-12-02T10:00:00Z', to: '2026-12-02T11:00:00Z' },
      /^user_id: give exactly one/,
    ],
    ['a time without a zone', { email: 'x@example.test', from: '2026-12-02T10:00:00', to: '2026-12-02T11:00:00Z' }, /^from: must be an ISO 8601/],
  ])('when an override has %s, then 400 naming the field and nothing is written', async (_what, body, error) => {
    const s = (await create(ws.owner)).body.data;
    const before = await rowCount(fx.stack.orm, 'schedule_overrides');
    expectError(await api('POST', `/schedules/${s.id}/overrides`, { session: ws.owner, body }), 400, 'invalid_request', error);
    expect(await rowCount(fx.stack.orm, 'schedule_overrides')).toBe(before);
  });

  it('when the override is for someone outside the workspace, then 400 naming the field', async () => {
    const s = (await create(ws.owner)).body.data;
    const outsider = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    expectError(
      await api('POST', `/schedules/${s.id}/overrides`, {
        session: ws.owner,
        body: { user_id: outsider.owner.userId, from: '2026-12-02T10:00:00Z', to: '2026-12-02T11:00:00Z' },
      }),
      400,
      'invalid_request',
      /^user_id: .* is not a member/,
    );
  });

  it('when an escalation policy targets the schedule, then deleting it is 409 schedule_in_use naming the policy, and nothing is removed', async () => {
    const s = (await create(ws.owner)).body.data;
    const policy = await api('POST', '/escalation-policies', {
      session: ws.owner,
      body: { name: 'Follow the sun', steps: [{ delay_seconds: 60, targets: [{ type: 'schedule', id: s.id }] }] },
    });
    expect(policy.status).toBe(201);
    expectError(await api('DELETE', `/schedules/${s.id}`, { session: ws.owner }), 409, 'schedule_in_use', /Follow the sun/);
    expect((await api('GET', `/schedules/${s.id}`, { session: ws.owner })).status).toBe(200);
    await api('PUT', `/escalation-policies/${policy.body.data.id}`, {
      session: ws.owner,
      body: { steps: [{ delay_seconds: 60, targets: [{ type: 'user', id: ws.owner.userId }] }] },
    });
    expect((await api('DELETE', `/schedules/${s.id}`, { session: ws.owner })).status).toBe(200);
  });

  it.each([
    ['an unknown field', { name: 'X', time_zone: 'UTC', layers: [], owner: 'me' }, /Unrecognized key/],
    [
      'a name that is too long',
      { name: 'n'.repeat(256), time_zone: 'UTC', layers: [{ users: ['a@example.test'], rotation: { unit: 'days', length: 1 }, start: '2026-12-01' }] },
      /^name: /,
    ],
    [
      'an unknown time zone',
      { name: 'X', time_zone: 'Europe/Atlantis', layers: [{ users: ['a@example.test'], rotation: { unit: 'days', length: 1 }, start: '2026-12-01' }] },
      /^time_zone: unknown time zone/,
    ],
    [
      'a rotation of the wrong type',
      { name: 'X', time_zone: 'UTC', layers: [{ users: ['a@example.test'], rotation: { unit: 'days', length: '1' }, start: '2026-12-01' }] },
      /^layers\.0\.rotation\.length: /,
    ],
    [
      'a bad hand-off time',
      { name: 'X', time_zone: 'UTC', layers: [{ users: ['a@example.test'], rotation: { unit: 'days', length: 1 }, handoff_time: '9am', start: '2026-12-01' }] },
      /^layers\[0\]\.handoff_time: /,
    ],
    [
      'a layer user outside the workspace',
      { name: 'X', time_zone: 'UTC', layers: [{ users: ['stranger@example.test'], rotation: { unit: 'days', length: 1 }, start: '2026-12-01' }] },
      /^layers\[0\]\.users: stranger@example\.test is not a member/,
    ],
  ])('when a schedule has %s, then 400 naming the field and nothing is written', async (_what, body, error) => {
    const before = await rowCount(fx.stack.orm, 'schedules');
    expectError(await api('POST', '/schedules', { session: ws.owner, body }), 400, 'invalid_request', error);
    expect(await rowCount(fx.stack.orm, 'schedules')).toBe(before);
  });

  it('when a state-changing request has no X-CSRF-Token, then 403 csrf_failed and nothing changes', async () => {
    const s = (await create(ws.owner)).body.data;
    const counts = async () => [await rowCount(fx.stack.orm, 'schedules'), await rowCount(fx.stack.orm, 'schedule_overrides')];
    const before = await counts();
    expectError(await api('POST', '/schedules', { session: ws.owner, csrf: null, body: { name: 'X', time_zone: 'UTC', layers: daily() } }), 403, 'csrf_failed');
    expectError(await api('PUT', `/schedules/${s.id}`, { session: ws.owner, csrf: null, body: { name: 'Renamed' } }), 403, 'csrf_failed');
    expectError(
      await api('POST', `/schedules/${s.id}/overrides`, {
        session: ws.owner,
        csrf: null,
        body: { user_id: ws.owner.userId, from: '2026-12-02T10:00:00Z', to: '2026-12-02T11:00:00Z' },
      }),
      403,
      'csrf_failed',
    );
    expectError(await api('DELETE', `/schedules/${s.id}`, { session: ws.owner, csrf: null }), 403, 'csrf_failed');
    expect(await counts()).toEqual(before);
    expect((await api('GET', `/schedules/${s.id}`, { session: ws.owner })).body.data.name).toBe('Primary');
  });

  it('when a schedule of another workspace is read, changed, deleted or overridden, then 404', async () => {
    const other = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const theirs = (
      await api('POST', '/schedules', {
        session: other.owner,
        body: { name: 'Theirs', time_zone: 'UTC', layers: [{ users: [other.owner.email], rotation: { unit: 'weeks', length: 1 }, start: '2026-12-01' }] },
      })
    ).body.data;
    for (const [method, path, body] of [
      ['GET', `/schedules/${theirs.id}`],
      ['GET', `/schedules/${theirs.id}/on-call`],
      ['GET', `/schedules/${theirs.id}/overrides`],
      ['PUT', `/schedules/${theirs.id}`, { name: 'Mine' }],
      ['POST', `/schedules/${theirs.id}/overrides`, { user_id: ws.owner.userId, from: '2026-12-02T10:00:00Z', to: '2026-12-02T11:00:00Z' }],
      ['DELETE', `/schedules/${theirs.id}`],
    ] as Array<[string, string, unknown?]>) {
      expectError(await api(method, path, { session: ws.owner, body }), 404, 'not_found');
    }
    expect((await api('GET', `/schedules/${theirs.id}`, { session: other.owner })).body.data.name).toBe('Theirs');
  });
});
