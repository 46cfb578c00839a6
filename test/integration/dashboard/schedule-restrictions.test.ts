import { knexOf } from '../../../src/db/knex';
import { dashboardFixture, expectDashboardError, workspaceWithRoles } from '../../support/dashboard';

// Restriction windows through /api/schedules: written, read back in today's shape, and obeyed by
// on-call and shifts; old {from, to} windows (requests and stored rows) read as daily ones.
const fx = dashboardFixture();
const { api } = fx;

let ws: Awaited<ReturnType<typeof workspaceWithRoles>>;
beforeAll(async () => {
  ws = await workspaceWithRoles(fx.stack.urls.app, fx.stack.orm);
});

const HOUR = 3600;
// Berlin is UTC+1 in December; 4 December 2026 is a Friday, 7 December a Monday.
const weekend = { type: 'weekly', start_day: 5, start_time: '18:00', duration_seconds: 64 * HOUR }; // Fri 18:00 → Mon 10:00
const base = () => ({ name: 'Base', users: [ws.owner.email], rotation: { unit: 'weeks', length: 1 }, handoff_time: '00:00', start: '2026-11-30' });
const restricted = (restrictions: unknown[]) => ({ ...base(), name: 'Weekend and lunch', users: [ws.as.MEMBER.email], restrictions });
const body = (layers: unknown[]) => ({ name: 'Cover', time_zone: 'Europe/Berlin', layers });
const owner = () => [ws.owner.userId];
const member = () => [ws.as.MEMBER.userId];

const create = async (layers: unknown[]) => {
  const res = await api('POST', '/schedules', { session: ws.owner, body: body(layers) });
  expect(res.status).toBe(201);
  return res.body.data;
};
const onCallAt = async (id: string, at: string) =>
  ((await api('GET', `/schedules/${id}/on-call?at=${at}`, { session: ws.as.MEMBER })).body.data.users as Array<{ id: string }>).map((u) => u.id);
const shifts = async (id: string, from: string, to: string) =>
  (await api('GET', `/schedules/${id}/shifts?from=${from}&to=${to}`, { session: ws.as.MEMBER })).body.data.map(
    (s: { start: string; end: string; user_ids: string[] }) => [s.start, s.end, s.user_ids],
  );

describe('restrictions through the dashboard API', () => {
  it('when a layer has a weekly and an old-style daily window, then both read back in the new shape, on every route', async () => {
    const s = await create([base(), restricted([weekend, { from: '12:00', to: '13:00' }])]);
    const windows = [weekend, { type: 'daily', start_time: '12:00', duration_seconds: HOUR }];
    expect(s.layers[1].restrictions).toEqual(windows);
    expect((await api('GET', `/schedules/${s.id}`, { session: ws.as.MEMBER })).body.data).toEqual(s);
    const listed = (await api('GET', '/schedules', { session: ws.as.MEMBER })).body.data.find((x: { id: string }) => x.id === s.id);
    expect(listed.layers[1].restrictions).toEqual(windows);
    const row = await knexOf(fx.stack.orm)('schedules').where({ id: s.id }).first();
    expect(row.layers[1].restrictions).toEqual(windows);
  });

  it('when asked inside and outside the windows, then on-call names the restricted layer’s person inside (opening instant included) and the lower layer’s outside (closing instant included)', async () => {
    const s = await create([base(), restricted([weekend, { type: 'daily', start_time: '12:00', duration_seconds: HOUR }])]);
    expect(await onCallAt(s.id, '2026-12-03T15:00:00Z')).toEqual(owner()); // Thursday 16:00
    expect(await onCallAt(s.id, '2026-12-03T11:00:00Z')).toEqual(member()); // Thursday lunch
    expect(await onCallAt(s.id, '2026-12-04T16:59:59.999Z')).toEqual(owner());
    expect(await onCallAt(s.id, '2026-12-04T17:00:00Z')).toEqual(member()); // Friday 18:00
    expect(await onCallAt(s.id, '2026-12-06T03:00:00Z')).toEqual(member()); // Sunday night
    expect(await onCallAt(s.id, '2026-12-07T08:59:59.999Z')).toEqual(member());
    expect(await onCallAt(s.id, '2026-12-07T09:00:00Z')).toEqual(owner()); // Monday 10:00

    const next = (await api('GET', `/schedules/${s.id}/on-call?at=2026-12-04T13:00:00Z`, { session: ws.owner })).body.data.next_handoff;
    expect(next).toEqual({ at: '2026-12-04T17:00:00.000Z', users: [{ id: ws.as.MEMBER.userId, email: ws.as.MEMBER.email }] });

    expect(await shifts(s.id, '2026-12-04T00:00:00Z', '2026-12-08T00:00:00Z')).toEqual([
      ['2026-12-04T00:00:00.000Z', '2026-12-04T11:00:00.000Z', owner()],
      ['2026-12-04T11:00:00.000Z', '2026-12-04T12:00:00.000Z', member()],
      ['2026-12-04T12:00:00.000Z', '2026-12-04T17:00:00.000Z', owner()],
      ['2026-12-04T17:00:00.000Z', '2026-12-07T09:00:00.000Z', member()],
      ['2026-12-07T09:00:00.000Z', '2026-12-07T11:00:00.000Z', owner()],
      ['2026-12-07T11:00:00.000Z', '2026-12-07T12:00:00.000Z', member()],
      ['2026-12-07T12:00:00.000Z', '2026-12-08T00:00:00.000Z', owner()],
    ]);
  });

  it('when the only layer is restricted, then shifts outside its windows have nobody on call', async () => {
    const s = await create([restricted([weekend])]);
    expect(await shifts(s.id, '2026-12-04T00:00:00Z', '2026-12-08T00:00:00Z')).toEqual([
      ['2026-12-04T00:00:00.000Z', '2026-12-04T17:00:00.000Z', []],
      ['2026-12-04T17:00:00.000Z', '2026-12-07T09:00:00.000Z', member()],
      ['2026-12-07T09:00:00.000Z', '2026-12-08T00:00:00.000Z', []],
    ]);
    expect(await onCallAt(s.id, '2026-12-03T12:00:00Z')).toEqual([]);
  });

  it('when the layers are changed to other windows, then the schedule reads back with them and answers by them', async () => {
    const s = await create([base(), restricted([weekend])]);
    const sundays = [{ type: 'weekly', start_day: 7, start_time: '00:00', duration_seconds: 24 * HOUR }];
    const res = await api('PUT', `/schedules/${s.id}`, { session: ws.owner, body: { layers: [base(), restricted(sundays)] } });
    expect(res.status).toBe(200);
    expect(res.body.data.layers[1].restrictions).toEqual(sundays);
    expect(await onCallAt(s.id, '2026-12-05T12:00:00Z')).toEqual(owner()); // Saturday: no longer covered
    expect(await onCallAt(s.id, '2026-12-06T12:00:00Z')).toEqual(member());
  });

  it('when a stored row still holds an old {from, to} window, then it reads back as a daily window and is obeyed', async () => {
    const s = await create([base(), restricted([weekend])]);
    const old = [s.layers[0], { ...s.layers[1], restrictions: [{ from: '22:00', to: '06:00' }] }];
    await knexOf(fx.stack.orm)('schedules')
      .where({ id: s.id })
      .update({ layers: JSON.stringify(old) });
    const read = (await api('GET', `/schedules/${s.id}`, { session: ws.owner })).body.data;
    expect(read.layers[1].restrictions).toEqual([{ type: 'daily', start_time: '22:00', duration_seconds: 8 * HOUR }]);
    expect(await onCallAt(s.id, '2026-12-02T22:00:00Z')).toEqual(member()); // Wednesday 23:00
    expect(await onCallAt(s.id, '2026-12-03T05:00:00Z')).toEqual(owner()); // Thursday 06:00
    // A change of name alone keeps the layers, now stored in the new shape.
    expect((await api('PUT', `/schedules/${s.id}`, { session: ws.owner, body: { name: 'Renamed' } })).body.data.layers).toEqual(read.layers);
  });

  it.each<[string, unknown, RegExp]>([
    ['a weekday past Sunday', { ...weekend, start_day: 8 }, /^layers\[1\]\.restrictions\[1\]\.start_day: must be an ISO weekday, 1 \(Monday\) to 7 \(Sunday\)/],
    [
      'a weekly window without start_day',
      { type: 'weekly', start_time: '09:00', duration_seconds: HOUR },
      /^layers\[1\]\.restrictions\[1\]\.start_day: is required for a weekly window/,
    ],
    [
      'a daily window with start_day',
      { type: 'daily', start_day: 1, start_time: '09:00', duration_seconds: HOUR },
      /^layers\[1\]\.restrictions\[1\]\.start_day: is only for weekly windows/,
    ],
    [
      'a daily window longer than a day',
      { type: 'daily', start_time: '09:00', duration_seconds: 86_401 },
      /^layers\[1\]\.restrictions\[1\]\.duration_seconds: must be at most 86400 \(a whole day\) for a daily window/,
    ],
    [
      'a bad start time',
      { type: 'daily', start_time: '9:00', duration_seconds: HOUR },
      /^layers\[1\]\.restrictions\[1\]\.start_time: must be a local time "HH:mm"/,
    ],
    ['an empty old window', { from: '09:00', to: '09:00' }, /^layers\[1\]\.restrictions\[1\]: from and to must differ/],
    ['an unknown type', { type: 'monthly', start_time: '09:00', duration_seconds: HOUR }, /^layers\.1\.restrictions\.1\.type: /],
  ])('when a window has %s, then 400 naming the field, and nothing is created or changed', async (_what, bad, error) => {
    const s = await create([base(), restricted([weekend])]);
    const before = await knexOf(fx.stack.orm)('schedules').count({ n: '*' }).first();
    const layers = [base(), restricted([weekend, bad])];
    expectDashboardError(await api('POST', '/schedules', { session: ws.owner, body: body(layers) }), 400, 'invalid_request', error);
    expectDashboardError(await api('PUT', `/schedules/${s.id}`, { session: ws.owner, body: { layers } }), 400, 'invalid_request', error);
    expect(await knexOf(fx.stack.orm)('schedules').count({ n: '*' }).first()).toEqual(before);
    expect((await api('GET', `/schedules/${s.id}`, { session: ws.owner })).body.data).toEqual(s);
  });

  it('when the OpenAPI document is read, then a restriction is {type, start_day, start_time, duration_seconds} in answers, and requests may also send the old from/to', async () => {
    const doc = (await api('GET', '/openapi.json')).body;
    const restrictionOf = (schema: any) => schema.properties.layers.items.properties.restrictions.items;
    const answer = restrictionOf(doc.paths['/api/schedules/{id}'].get.responses['200'].content['application/json'].schema);
    expect(Object.keys(answer.properties)).toEqual(['type', 'start_day', 'start_time', 'duration_seconds']);
    expect(answer.properties.type.enum).toEqual(['daily', 'weekly']);
    expect(answer.required).toEqual(['type', 'start_time', 'duration_seconds']);
    const request = restrictionOf(doc.paths['/api/schedules'].post.requestBody.content['application/json'].schema);
    expect(Object.keys(request.properties)).toEqual(['type', 'start_day', 'start_time', 'duration_seconds', 'from', 'to']);
  });
});
