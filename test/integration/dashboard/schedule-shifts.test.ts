import { dashboardFixture, expectDashboardError, type DashboardSession, workspaceWithRoles } from '../../support/dashboard';

// The calendar's data: GET /api/schedules/{id}/shifts (who is on call over a window, overrides
// applied) and GET /api/on-call/me (am I on call, until when, and my next shift).
const fx = dashboardFixture();
const { api } = fx;

let ws: Awaited<ReturnType<typeof workspaceWithRoles>>;
beforeAll(async () => {
  ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The owner and the member take turns daily at 09:00 Berlin time, the owner first from 20 October 2026. */
const berlinDaily = async (session: DashboardSession = ws.owner) => {
  const body = {
    name: 'Berlin',
    time_zone: 'Europe/Berlin',
    layers: [{ users: [ws.owner.email, ws.as.MEMBER.email], rotation: { unit: 'days', length: 1 }, handoff_time: '09:00', start: '2026-10-20' }],
  };
  const res = await api('POST', '/schedules', { session, body });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
};
const shifts = (id: string, query: string, session: DashboardSession = ws.as.MEMBER) => api('GET', `/schedules/${id}/shifts${query}`, { session });
const owner = () => ({ id: ws.owner.userId, name: 'Ada Owner', email: ws.owner.email });
const member = () => ({ id: ws.as.MEMBER.userId, name: null, email: ws.as.MEMBER.email });

describe('GET /api/schedules/{id}/shifts', () => {
  it('when the window holds the end of summer time in Berlin, then the 09:00 hand-offs stay at 09:00 local and that day’s shift lasts 25 hours', async () => {
    const id = await berlinDaily();
    // 24 Oct is day 4 from 20 Oct: the owner's. Summer time ends on 25 Oct at 03:00 (→ 02:00).
    const res = await shifts(id, '?from=2026-10-24T00:00:00Z&to=2026-10-27T00:00:00Z');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { start: '2026-10-24T00:00:00.000Z', end: '2026-10-24T07:00:00.000Z', user_ids: [ws.as.MEMBER.userId], users: [member()] },
      { start: '2026-10-24T07:00:00.000Z', end: '2026-10-25T08:00:00.000Z', user_ids: [ws.owner.userId], users: [owner()] },
      { start: '2026-10-25T08:00:00.000Z', end: '2026-10-26T08:00:00.000Z', user_ids: [ws.as.MEMBER.userId], users: [member()] },
      { start: '2026-10-26T08:00:00.000Z', end: '2026-10-27T00:00:00.000Z', user_ids: [ws.owner.userId], users: [owner()] },
    ]);
    const long = res.body.data[1];
    expect(new Date(long.end).getTime() - new Date(long.start).getTime()).toBe(25 * HOUR);
  });

  it('when an override covers part of a shift, then the shift is split around it and the override’s person is on call in between', async () => {
    const id = await berlinDaily();
    const added = await api('POST', `/schedules/${id}/overrides`, {
      session: ws.owner,
      body: { user_id: ws.as.TEAM_MANAGER.userId, from: '2026-12-02T12:00:00+01:00', to: '2026-12-02T18:00:00+01:00' },
    });
    expect(added.status).toBe(201);
    // 2 Dec 09:00 Berlin (08:00Z) to 3 Dec 09:00: day 43 from 20 Oct, the member's.
    const res = await shifts(id, '?from=2026-12-02T08:00:00Z&to=2026-12-03T08:00:00Z');
    expect(res.body.data.map((s: { start: string; end: string; user_ids: string[] }) => [s.start, s.end, s.user_ids])).toEqual([
      ['2026-12-02T08:00:00.000Z', '2026-12-02T11:00:00.000Z', [ws.as.MEMBER.userId]],
      ['2026-12-02T11:00:00.000Z', '2026-12-02T17:00:00.000Z', [ws.as.TEAM_MANAGER.userId]],
      ['2026-12-02T17:00:00.000Z', '2026-12-03T08:00:00.000Z', [ws.as.MEMBER.userId]],
    ]);
    expect(res.body.data[1].users).toEqual([{ id: ws.as.TEAM_MANAGER.userId, name: null, email: ws.as.TEAM_MANAGER.email }]);
  });

  it('when no window is given, then it is from now for 14 days', async () => {
    const id = await berlinDaily();
    const before = Date.now();
    const data = (await shifts(id, '')).body.data as Array<{ start: string; end: string }>;
    const from = new Date(data[0].start).getTime();
    expect(from).toBeGreaterThanOrEqual(before - 1000);
    expect(from).toBeLessThanOrEqual(Date.now());
    expect(new Date(data.at(-1)!.end).getTime() - from).toBe(14 * DAY);
    // A daily rotation over 14 days: 14 hand-offs, so 14 or 15 shifts.
    expect(data.length).toBeGreaterThanOrEqual(14);
  });

  it.each([
    ['to before from', '?from=2026-12-02T00:00:00Z&to=2026-12-01T00:00:00Z', /^to: must be after from/],
    ['to equal to from', '?from=2026-12-02T00:00:00Z&to=2026-12-02T00:00:00Z', /^to: must be after from/],
    ['more than 35 days', '?from=2026-12-01T00:00:00Z&to=2027-01-05T00:00:01Z', /^to: must be at most 35 days after from/],
    ['a from that is no date-time', '?from=tomorrow', /^from: must be an ISO 8601/],
    ['a to without a zone', '?from=2026-12-01T00:00:00Z&to=2026-12-02T00:00:00', /^to: must be an ISO 8601/],
    ['an unknown parameter', '?since=2026-12-01T00:00:00Z', /Unrecognized key/],
  ])('when the window has %s, then 400 naming the field', async (_what, query, error) => {
    const id = await berlinDaily();
    expectDashboardError(await shifts(id, query), 400, 'invalid_request', error);
  });

  it('when exactly 35 days are asked for, then they are answered', async () => {
    const id = await berlinDaily();
    const res = await shifts(id, '?from=2026-12-01T00:00:00Z&to=2027-01-05T00:00:00Z');
    expect(res.status).toBe(200);
    expect(res.body.data.at(-1).end).toBe('2027-01-05T00:00:00.000Z');
  });

  it('when every role reads the shifts, then each may; a schedule of another workspace is 404', async () => {
    const id = await berlinDaily();
    for (const role of ['BILLING_OWNER', 'ACCOUNT_ADMIN', 'TEAM_MANAGER', 'MEMBER'] as const) {
      expect([role, (await shifts(id, '', ws.as[role])).status]).toEqual([role, 200]);
    }
    const other = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const theirs = await api('POST', '/schedules', {
      session: other.owner,
      body: { name: 'Theirs', time_zone: 'UTC', layers: [{ users: [other.owner.email], rotation: { unit: 'weeks', length: 1 }, start: '2026-12-01' }] },
    });
    expectDashboardError(await shifts(theirs.body.data.id, ''), 404, 'not_found');
    expect((await shifts(theirs.body.data.id, '', other.as.MEMBER)).status).toBe(200);
  });
});

describe('GET /api/on-call/me', () => {
  it('when I am on call now by an override, then it says so, until when, and my next shift; who is not on call gets an empty list', async () => {
    const team = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
    const body = {
      name: 'Ops',
      time_zone: 'UTC',
      layers: [{ users: [team.as.TEAM_MANAGER.email], rotation: { unit: 'weeks', length: 1 }, start: '2026-01-01' }],
    };
    const id = (await api('POST', '/schedules', { session: team.owner, body })).body.data.id;
    const now = Date.now();
    const iso = (t: number) => new Date(t).toISOString();
    // The member takes the pager for two hours around now, and for two hours tomorrow.
    for (const [from, to] of [
      [now - HOUR, now + HOUR],
      [now + DAY, now + DAY + 2 * HOUR],
    ]) {
      expect(
        (await api('POST', `/schedules/${id}/overrides`, { session: team.owner, body: { user_id: team.as.MEMBER.userId, from: iso(from), to: iso(to) } }))
          .status,
      ).toBe(201);
    }
    const mine = await api('GET', '/on-call/me', { session: team.as.MEMBER });
    expect(mine.status).toBe(200);
    expect(mine.body.data).toEqual({
      at: expect.any(String),
      on_call_now: true,
      schedules: [
        {
          schedule: { id, name: 'Ops', time_zone: 'UTC' },
          current: { start: iso(now - HOUR), end: iso(now + HOUR) },
          next: { start: iso(now + DAY), end: iso(now + DAY + 2 * HOUR) },
        },
      ],
    });

    // The layer's person is off while the member covers: not on call now, back when the override ends.
    const layerPerson = (await api('GET', '/on-call/me', { session: team.as.TEAM_MANAGER })).body.data;
    expect(layerPerson.on_call_now).toBe(false);
    expect(layerPerson.schedules).toEqual([
      { schedule: { id, name: 'Ops', time_zone: 'UTC' }, current: null, next: { start: iso(now + HOUR), end: iso(now + DAY) } },
    ]);

    expect((await api('GET', '/on-call/me', { session: team.owner })).body.data).toEqual({ at: expect.any(String), on_call_now: false, schedules: [] });
  });
});
