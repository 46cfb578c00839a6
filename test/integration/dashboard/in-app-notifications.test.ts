import { randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { ALL_ROLES, dashboardFixture, expectDashboardError, memberSession, workspaceWithRoles } from '../../support/dashboard';

const fx = dashboardFixture();
const { api } = fx;
const db = () => knexOf(fx.stack.orm);

/** An incident of the workspace, for notifications to point at. */
async function incident(organizationId: string, title: string) {
  const number = Number((await db()('incidents').where({ organization_id: organizationId }).max({ n: 'number' }))[0].n ?? 0) + 1;
  const id = randomUUID();
  const now = new Date();
  await db()('incidents').insert({
    id,
    organization_id: organizationId,
    number,
    owning_team_id: randomUUID(),
    title,
    severity: 'HIGH',
    status: 'TRIGGERED',
    alert_count: 0,
    last_seq: 0,
    created_at: now,
    updated_at: now,
  });
  return { id, number, title };
}

/** In-app notifications as paging writes them, `n` of them a minute apart (the last one newest). */
async function notify(
  organizationId: string,
  userId: string,
  n: number,
  opts: { incidentId?: string; read?: boolean; minutesAgo?: number } = {},
): Promise<string[]> {
  const ids: string[] = [];
  const base = Date.now() - (opts.minutesAgo ?? n) * 60_000;
  for (let i = 0; i < n; i++) {
    const id = randomUUID();
    ids.push(id);
    await db()('user_notifications').insert({
      id,
      organization_id: organizationId,
      user_id: userId,
      incident_id: opts.incidentId ?? null,
      title: `Page ${i + 1}`,
      body: `You are paged (${i + 1})`,
      read_at: opts.read ? new Date() : null,
      created_at: new Date(base + i * 60_000),
    });
  }
  return ids;
}

describe('the unread count', () => {
  it('when I have unread and read notifications, then the body is exactly {success, unread_count} with my unread ones', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    await notify(ws.organizationId, ws.owner.userId, 3);
    await notify(ws.organizationId, ws.owner.userId, 2, { read: true });
    const res = await api('GET', '/notifications/unread-count', { session: ws.owner });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, unread_count: 3 });
  });

  it('when another member, or I in another workspace, have unread notifications, then they are not in my count', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    await notify(ws.organizationId, ws.owner.userId, 1);
    await notify(ws.organizationId, ws.as.MEMBER.userId, 4);
    await notify(randomUUID(), ws.owner.userId, 5); // the same person, another workspace
    expect((await api('GET', '/notifications/unread-count', { session: ws.owner })).body).toEqual({ success: true, unread_count: 1 });
    expect((await api('GET', '/notifications/unread-count', { session: ws.as.MEMBER })).body).toEqual({ success: true, unread_count: 4 });
  });

  it.each(ALL_ROLES)('when a %s reads their count, then it is theirs (any member may)', async (role) => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    await notify(ws.organizationId, ws.as[role].userId, 2);
    expect((await api('GET', '/notifications/unread-count', { session: ws.as[role] })).body).toEqual({ success: true, unread_count: 2 });
  });
});

describe('marking all read', () => {
  it('when I mark all read, then it says how many, my count is 0 and other members’ notifications stay unread', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    await notify(ws.organizationId, ws.owner.userId, 3);
    await notify(ws.organizationId, ws.owner.userId, 1, { read: true });
    await notify(ws.organizationId, ws.as.ACCOUNT_ADMIN.userId, 2);
    const res = await api('POST', '/notifications/mark-all-read', { session: ws.owner });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, data: { marked_read: 3 } });
    expect((await api('GET', '/notifications/unread-count', { session: ws.owner })).body).toEqual({ success: true, unread_count: 0 });
    expect((await api('GET', '/notifications/unread-count', { session: ws.as.ACCOUNT_ADMIN })).body).toEqual({ success: true, unread_count: 2 });
    // Again: nothing left to mark.
    expect((await api('POST', '/notifications/mark-all-read', { session: ws.owner })).body.data).toEqual({ marked_read: 0 });
  });

  it.each(ALL_ROLES)('when a %s marks all read, then their own notifications are read', async (role) => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    await notify(ws.organizationId, ws.as[role].userId, 1);
    expect((await api('POST', '/notifications/mark-all-read', { session: ws.as[role] })).body.data).toEqual({ marked_read: 1 });
  });

  it('when the body has an unknown field, then 400 naming it and nothing is marked', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    await notify(ws.organizationId, ws.owner.userId, 2);
    const res = await api('POST', '/notifications/mark-all-read', { session: ws.owner, body: { ids: ['x'] } });
    expectDashboardError(res, 400, 'invalid_request', /"ids"/);
    expect((await api('GET', '/notifications/unread-count', { session: ws.owner })).body.unread_count).toBe(2);
  });

  it('when X-CSRF-Token is missing, then 403 csrf_failed and nothing is marked', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    await notify(ws.organizationId, ws.owner.userId, 2);
    expectDashboardError(await api('POST', '/notifications/mark-all-read', { session: ws.owner, csrf: null }), 403, 'csrf_failed');
    expect((await api('GET', '/notifications/unread-count', { session: ws.owner })).body.unread_count).toBe(2);
  });
});

describe('the list', () => {
  it('when I page through my notifications, then they come newest first, a page at a time, with meta.total', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const ids = await notify(ws.organizationId, ws.owner.userId, 5);
    const newestFirst = [...ids].reverse();
    const pages = [];
    for (const offset of [0, 2, 4]) {
      const res = await api('GET', `/notifications?limit=2&offset=${offset}`, { session: ws.owner });
      expect(res.status).toBe(200);
      expect(res.body.meta).toEqual({ total: 5, limit: 2, offset });
      pages.push(...res.body.data.map((n: { id: string }) => n.id));
    }
    expect(pages).toEqual(newestFirst);
  });

  it('when I ask for unread only, then read ones are left out and meta.total counts the unread', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const unread = await notify(ws.organizationId, ws.owner.userId, 2);
    await notify(ws.organizationId, ws.owner.userId, 3, { read: true });
    const res = await api('GET', '/notifications?unread=true', { session: ws.owner });
    expect(res.body.meta.total).toBe(2);
    expect(res.body.data.map((n: { id: string }) => n.id).sort()).toEqual([...unread].sort());
    expect(res.body.data.every((n: { read: boolean }) => !n.read)).toBe(true);
    expect((await api('GET', '/notifications?unread=false', { session: ws.owner })).body.meta.total).toBe(5);
  });

  it('when a notification is about an incident, then it carries the incident’s id, number and title', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const inc = await incident(ws.organizationId, 'Checkout is down');
    await notify(ws.organizationId, ws.owner.userId, 1, { incidentId: inc.id, minutesAgo: 10 });
    await notify(ws.organizationId, ws.owner.userId, 1);
    const res = await api('GET', '/notifications', { session: ws.owner });
    expect(res.body.data).toEqual([
      { id: expect.any(String), incident_id: null, incident: null, title: 'Page 1', body: 'You are paged (1)', read: false, created_at: expect.any(String) },
      { id: expect.any(String), incident_id: inc.id, incident: inc, title: 'Page 1', body: 'You are paged (1)', read: false, created_at: expect.any(String) },
    ]);
  });

  it('when another member has notifications, then my list does not show them', async () => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const other = await memberSession(fx.stack.urls.app, fx.stack.orm, ws.organizationId, 'MEMBER');
    await notify(ws.organizationId, other.userId, 3);
    const res = await api('GET', '/notifications', { session: ws.owner });
    expect(res.body).toMatchObject({ success: true, data: [], meta: { total: 0 } });
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['offset=-1', 'offset'],
    ['limit=ten', 'limit'],
    ['unread=maybe', 'unread'],
    ['colour=red', 'colour'],
  ])('when the query has %s, then 400 naming %s', async (query, field) => {
    const ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const res = await api('GET', `/notifications?${query}`, { session: ws.owner });
    expectDashboardError(res, 400, 'invalid_request');
    expect(res.body.error).toContain(field);
  });
});
