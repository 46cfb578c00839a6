import type { MikroORM } from '@mikro-orm/postgresql';
import { openOrm } from '../../../src/db/orm';
import { knexOf } from '../../../src/db/knex';
import { onCallUserIds } from '../../../src/services/paging/schedules';
import { addUser, createOrganization } from '../../../src/services/workspace/workspaces';
import { klaxon, type CliResult } from '../../support/cli';

let orm: MikroORM;
let orgId: string;
let otherOrgId: string;
const people: Record<'alice' | 'bob' | 'carol' | 'outsider', { id: string; email: string }> = {} as never;

const tag = Math.random().toString(36).slice(2, 8);
const email = (name: string) => `${name}-${tag}@example.test`;
const count = async (table: string) => Number((await knexOf(orm)(table).count({ n: '*' }))[0].n);

beforeAll(async () => {
  orm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 4);
  orgId = (await createOrganization(orm, { name: 'Rota', plan: 'PRO' })).id;
  otherOrgId = (await createOrganization(orm, { name: 'Elsewhere', plan: 'PRO' })).id;
  for (const name of ['alice', 'bob', 'carol'] as const) {
    people[name] = await addUser(orm, { organizationId: orgId, email: email(name), password: 'a long password', role: 'MEMBER', verified: true });
  }
  people.outsider = await addUser(orm, { organizationId: otherOrgId, email: email('outsider'), password: 'a long password', role: 'MEMBER', verified: true });
});
afterAll(() => orm.close());

/** A daily 09:00 New York rotation alice → bob → carol from 2026-03-01 (alice on Mar 1, 4, 7, …). */
const dailyLayers = () => [
  {
    name: 'primary',
    users: [email('alice'), people.bob.id, email('carol').toUpperCase()],
    rotation: { unit: 'days', length: 1 },
    handoff_time: '09:00',
    start: '2026-03-01',
  },
];

async function createSchedule(layers: unknown = dailyLayers(), timeZone = 'America/New_York'): Promise<CliResult> {
  return klaxon(['schedule', 'create', '--org', orgId, '--name', 'Primary', '--time-zone', timeZone, '--layers', JSON.stringify(layers), '--json']);
}
const oncall = (scheduleId: string, at?: string) => klaxon(['oncall', '--schedule', scheduleId, ...(at ? ['--at', at] : []), '--json']);
const user = (name: keyof typeof people) => ({ id: people[name].id, email: people[name].email });

/** A refused command: non-zero exit, one readable line on stderr, nothing on stdout. */
function expectRefused(res: CliResult, message: RegExp) {
  expect(res.code).not.toBe(0);
  expect(res.stdout).toBe('');
  expect(res.stderr.trim().split('\n')).toHaveLength(1);
  expect(res.stderr).toMatch(message);
}

describe('klaxon schedule create', () => {
  it('when layers name users by email (any case) or id, then one JSON object with the layers stored by user id', async () => {
    const res = await createSchedule();
    expect(res.code).toBe(0);
    expect(res.stdout.trim().split('\n')).toHaveLength(1);
    expect(Object.keys(res.json).sort()).toEqual(['id', 'layers', 'name', 'organization_id', 'time_zone']);
    expect(res.json).toMatchObject({ organization_id: orgId, name: 'Primary', time_zone: 'America/New_York' });
    expect(res.json.layers).toEqual([{ ...dailyLayers()[0], users: [people.alice.id, people.bob.id, people.carol.id] }]);
    const row = await knexOf(orm)('schedules').where({ id: res.json.id }).first();
    expect(row.layers).toEqual(res.json.layers);
  });

  it('when a layer has daily and weekly restrictions (one in the old {from, to} shape), then --json and the row show them in the new shape, and oncall follows them', async () => {
    // Bob covers weekends (Friday 18:00 to Monday 09:00) and every night from 22:00 for 8 hours; 2026-06-05 is a Friday (EDT).
    const weekends = { type: 'weekly', start_day: 5, start_time: '18:00', duration_seconds: 63 * 3600 };
    const upper = { name: 'cover', users: [email('bob')], rotation: { unit: 'weeks', length: 1 }, handoff_time: '09:00', start: '2026-06-01' };
    const res = await createSchedule([
      { ...dailyLayers()[0], users: [email('alice')] },
      { ...upper, restrictions: [weekends, { from: '22:00', to: '06:00' }] },
    ]);
    expect(res.code).toBe(0);
    const windows = [weekends, { type: 'daily', start_time: '22:00', duration_seconds: 8 * 3600 }];
    expect(res.json.layers[1]).toEqual({ ...upper, users: [people.bob.id], restrictions: windows });
    expect((await knexOf(orm)('schedules').where({ id: res.json.id }).first()).layers[1].restrictions).toEqual(windows);
    const at = async (iso: string) => (await oncall(res.json.id, iso)).json;
    expect(await at('2026-06-05T21:59:59.999Z')).toEqual({ users: [user('alice')] }); // Friday 17:59
    expect(await at('2026-06-05T22:00:00Z')).toEqual({ users: [user('bob')] }); // Friday 18:00
    expect(await at('2026-06-08T12:59:59.999Z')).toEqual({ users: [user('bob')] }); // Monday 08:59
    expect(await at('2026-06-08T13:00:00Z')).toEqual({ users: [user('alice')] }); // Monday 09:00
    expect(await at('2026-06-09T03:00:00Z')).toEqual({ users: [user('bob')] }); // Monday 23:00
  });

  it.each([
    [
      'a weekly restriction without a start day',
      () => createSchedule([{ ...dailyLayers()[0], restrictions: [{ type: 'weekly', start_time: '18:00', duration_seconds: 3600 }] }]),
      /layers\[0\]\.restrictions\[0\]\.start_day: is required for a weekly window: 1 \(Monday\) to 7 \(Sunday\)/,
    ],
    [
      'a daily restriction longer than a day',
      () => createSchedule([{ ...dailyLayers()[0], restrictions: [{ type: 'daily', start_time: '18:00', duration_seconds: 90_000 }] }]),
      /layers\[0\]\.restrictions\[0\]\.duration_seconds: must be at most 86400 \(a whole day\) for a daily window/,
    ],
    ['an unknown time zone', () => createSchedule(dailyLayers(), 'Europe/Atlantis'), /unknown time zone "Europe\/Atlantis"/],
    [
      'layers that are not JSON',
      () => klaxon(['schedule', 'create', '--org', orgId, '--name', 'x', '--time-zone', 'UTC', '--layers', '[{', '--json']),
      /--layers: must be valid JSON/,
    ],
    ['a layer without users', () => createSchedule([{ ...dailyLayers()[0], users: [] }]), /layers\[0\]\.users: must name at least one user/],
    [
      'a rotation of length 0',
      () => createSchedule([{ ...dailyLayers()[0], rotation: { unit: 'days', length: 0 } }]),
      /layers\[0\]\.rotation\.length: must be at least 1/,
    ],
    ['a bad handoff time', () => createSchedule([{ ...dailyLayers()[0], handoff_time: '9am' }]), /layers\[0\]\.handoff_time: must be a local time "HH:mm"/],
    [
      'someone from another workspace',
      () => createSchedule([{ ...dailyLayers()[0], users: [email('alice'), email('outsider')] }]),
      new RegExp(`layers\\[0\\]\\.users: ${email('outsider')} is not a member of this workspace`),
    ],
    ['a user id from another workspace', () => createSchedule([{ ...dailyLayers()[0], users: [people.outsider.id] }]), /is not a member of this workspace/],
    [
      'an unknown workspace',
      () =>
        klaxon([
          'schedule',
          'create',
          '--org',
          '00000000-0000-4000-8000-000000000000',
          '--name',
          'x',
          '--time-zone',
          'UTC',
          '--layers',
          JSON.stringify(dailyLayers()),
          '--json',
        ]),
      /organization .* not found/,
    ],
    [
      'a workspace id that is no UUID',
      () => klaxon(['schedule', 'create', '--org', 'acme', '--name', 'x', '--time-zone', 'UTC', '--layers', '[]', '--json']),
      /--org: must be a workspace id \(UUID\)/,
    ],
  ])('when given %s, then refused with a clear error and no schedule stored', async (_name, run, message) => {
    const before = await count('schedules');
    expectRefused(await run(), message);
    expect(await count('schedules')).toBe(before);
  });
});

describe('klaxon oncall', () => {
  let scheduleId: string;
  beforeAll(async () => {
    scheduleId = (await createSchedule()).json.id;
  });

  it('when asked at and around the handoffs of a spring-forward day, then the 09:00 local handoff holds (14:00Z before, 13:00Z after)', async () => {
    // Mar 7 is alice's day (day 6 of the rotation), Mar 8 bob's.
    expect((await oncall(scheduleId, '2026-03-07T13:59:59.999Z')).json).toEqual({ users: [user('carol')] });
    expect((await oncall(scheduleId, '2026-03-07T09:00:00-05:00')).json).toEqual({ users: [user('alice')] });
    expect((await oncall(scheduleId, '2026-03-08T12:59:59.999Z')).json).toEqual({ users: [user('alice')] });
    expect((await oncall(scheduleId, '2026-03-08T09:00:00-04:00')).json).toEqual({ users: [user('bob')] });
  });

  it('when --at is left out, then it answers for now', async () => {
    const single = (await createSchedule([{ ...dailyLayers()[0], users: [email('carol')] }], 'Asia/Kolkata')).json.id;
    const res = await oncall(single);
    expect(res.code).toBe(0);
    expect(res.json).toEqual({ users: [user('carol')] });
  });

  it.each([
    [
      'an unknown schedule',
      () => oncall('00000000-0000-4000-8000-000000000000', '2026-03-07T12:00:00Z'),
      /schedule 00000000-0000-4000-8000-000000000000 not found/,
    ],
    [
      'an instant without an offset',
      () => oncall('00000000-0000-4000-8000-000000000000', '2026-03-07T12:00'),
      /--at: must be an ISO 8601 instant with an offset/,
    ],
  ])('when given %s, then a clear error and a non-zero exit', async (_name, run, message) => {
    expectRefused(await run(), message);
  });

  it('when --schedule is missing, then commander names it first and exits non-zero', async () => {
    const res = await klaxon(['oncall', '--json']);
    expect(res.code).not.toBe(0);
    expect(res.stdout).toBe('');
    expect(res.stderr.split('\n')[0]).toMatch(/required option '--schedule <id>' not specified/);
  });
});

describe('klaxon schedule override', () => {
  let scheduleId: string;
  beforeAll(async () => {
    scheduleId = (await createSchedule()).json.id;
  });

  it('when an override is added, then it answers its row and beats the layers over exactly [from, to)', async () => {
    const res = await klaxon([
      'schedule',
      'override',
      '--schedule',
      scheduleId,
      '--user',
      email('Carol').toUpperCase(),
      '--from',
      '2026-03-08T15:00:00Z',
      '--to',
      '2026-03-08T18:00:00+01:00',
      '--json',
    ]);
    expect(res.code).toBe(0);
    expect(res.json).toEqual({
      id: expect.any(String),
      schedule_id: scheduleId,
      user_id: people.carol.id,
      from: '2026-03-08T15:00:00.000Z',
      to: '2026-03-08T17:00:00.000Z',
    });
    expect((await oncall(scheduleId, '2026-03-08T14:59:59.999Z')).json.users).toEqual([user('bob')]);
    expect((await oncall(scheduleId, '2026-03-08T15:00:00Z')).json.users).toEqual([user('carol')]);
    expect((await oncall(scheduleId, '2026-03-08T16:59:59.999Z')).json.users).toEqual([user('carol')]);
    expect((await oncall(scheduleId, '2026-03-08T17:00:00Z')).json.users).toEqual([user('bob')]);
  });

  it('when overrides overlap, then everyone they name is on call', async () => {
    await klaxon([
      'schedule',
      'override',
      '--schedule',
      scheduleId,
      '--user',
      email('alice'),
      '--from',
      '2026-04-01T00:00:00Z',
      '--to',
      '2026-04-01T12:00:00Z',
    ]);
    await klaxon([
      'schedule',
      'override',
      '--schedule',
      scheduleId,
      '--user',
      email('carol'),
      '--from',
      '2026-04-01T06:00:00Z',
      '--to',
      '2026-04-01T18:00:00Z',
    ]);
    expect((await oncall(scheduleId, '2026-04-01T08:00:00Z')).json.users).toEqual([user('alice'), user('carol')]);
  });

  it.each([
    ['from after to', () => ['--user', email('alice'), '--from', '2026-05-02T00:00:00Z', '--to', '2026-05-01T00:00:00Z'], /to: must be after from/],
    ['from equal to to', () => ['--user', email('alice'), '--from', '2026-05-01T00:00:00Z', '--to', '2026-05-01T00:00:00Z'], /to: must be after from/],
    [
      'someone outside the workspace',
      () => ['--user', email('outsider'), '--from', '2026-05-01T00:00:00Z', '--to', '2026-05-02T00:00:00Z'],
      /is not a member of this schedule's workspace/,
    ],
    [
      'an instant without an offset',
      () => ['--user', email('alice'), '--from', '2026-05-01T00:00', '--to', '2026-05-02T00:00:00Z'],
      /--from: must be an ISO 8601 instant with an offset/,
    ],
    ['not an email', () => ['--user', 'alice', '--from', '2026-05-01T00:00:00Z', '--to', '2026-05-02T00:00:00Z'], /--user: must be an email address/],
  ])('when given %s, then refused with a clear error and no override stored', async (_name, args, message) => {
    const before = await count('schedule_overrides');
    expectRefused(await klaxon(['schedule', 'override', '--schedule', scheduleId, ...args(), '--json']), message);
    expect(await count('schedule_overrides')).toBe(before);
  });

  it('when the schedule does not exist, then not found and nothing stored', async () => {
    const before = await count('schedule_overrides');
    expectRefused(
      await klaxon([
        'schedule',
        'override',
        '--schedule',
        '00000000-0000-4000-8000-000000000000',
        '--user',
        email('alice'),
        '--from',
        '2026-05-01T00:00:00Z',
        '--to',
        '2026-05-02T00:00:00Z',
      ]),
      /schedule .* not found/,
    );
    expect(await count('schedule_overrides')).toBe(before);
  });
});

describe('onCallUserIds (paging)', () => {
  it('when asked at an instant, then the on-call user ids; someone who has left the workspace is not paged', async () => {
    const created = await createSchedule([
      { ...dailyLayers()[0], users: [email('alice')] },
      {
        name: 'upper',
        users: [email('bob')],
        rotation: { unit: 'weeks', length: 1 },
        handoff_time: '09:00',
        start: '2026-06-01',
        restrictions: [{ from: '18:00', to: '09:00' }],
      },
    ]);
    const scheduleId = created.json.id as string;
    expect(await onCallUserIds(orm, scheduleId, new Date('2026-06-02T16:00:00Z'))).toEqual([people.alice.id]); // 12:00 EDT
    expect(await onCallUserIds(orm, scheduleId, new Date('2026-06-02T22:00:00Z'))).toEqual([people.bob.id]); // 18:00 EDT
    await knexOf(orm)('memberships').where({ organization_id: orgId, user_id: people.bob.id }).delete();
    try {
      expect(await onCallUserIds(orm, scheduleId, new Date('2026-06-02T22:00:00Z'))).toEqual([]);
    } finally {
      await knexOf(orm)('memberships').insert({
        id: crypto.randomUUID(),
        organization_id: orgId,
        user_id: people.bob.id,
        role: 'MEMBER',
        created_at: new Date(),
      });
    }
  });

  it('when the schedule does not exist, then a not-found error', async () => {
    await expect(onCallUserIds(orm, '00000000-0000-4000-8000-000000000000', new Date())).rejects.toMatchObject({ kind: 'not_found' });
  });
});
