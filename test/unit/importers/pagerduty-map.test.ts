import { mapPagerDuty } from '../../../src/integrations/pagerduty/import-map';
import type { PagerDutyData, PdLayer } from '../../../src/integrations/pagerduty/import-schemas';

const NOW = new Date('2026-11-27T00:00:00Z');
const user = (id: string) => ({ id, name: id, email: `${id.toLowerCase()}@example.com` });
const ref = (id: string) => ({ user: { id, type: 'user_reference' } });

function layer(id: string, extra: Partial<PdLayer> = {}): PdLayer {
  return {
    id,
    name: id,
    start: '2026-01-05T09:00:00Z',
    end: null,
    rotation_virtual_start: '2026-01-05T09:00:00Z',
    rotation_turn_length_seconds: 86_400,
    users: [ref('PA'), ref('PB')],
    restrictions: [],
    ...extra,
  };
}

function account(layers: PdLayer[], extra: Partial<PagerDutyData> = {}): PagerDutyData {
  return {
    users: [user('PA'), user('PB')],
    teams: [],
    schedules: [{ id: 'S', name: 'Sched', time_zone: 'Europe/Berlin', schedule_layers: layers, overrides: [] }],
    escalationPolicies: [],
    services: [],
    ...extra,
  };
}

describe('PagerDuty schedules as Klaxon layers', () => {
  it('when PagerDuty lists layers highest first, then Klaxon gets them lowest first (the last one wins)', () => {
    const plan = mapPagerDuty(account([layer('TOP'), layer('MIDDLE'), layer('BOTTOM')]), { now: NOW });
    expect(plan.schedules[0].layers.map((l) => l.externalId)).toEqual(['BOTTOM', 'MIDDLE', 'TOP']);
  });

  it('when a layer rotates daily from 09:00 UTC, then in Berlin it hands off at 10:00 local from that date, users in order', () => {
    const [l] = mapPagerDuty(account([layer('L')]), { now: NOW }).schedules[0].layers;
    expect(l).toEqual({ externalId: 'L', name: 'L', users: ['PA', 'PB'], rotation: { unit: 'days', length: 1 }, handoff_time: '10:00', start: '2026-01-05' });
  });

  it('when restrictions are daily and weekly, then they keep their shape with minutes only and ISO weekdays', () => {
    const restrictions = [
      { type: 'daily_restriction', start_time_of_day: '20:00:00', start_day_of_week: null, duration_seconds: 43_200 },
      { type: 'weekly_restriction', start_time_of_day: '09:00:00', start_day_of_week: 6, duration_seconds: 172_800 },
    ];
    const [l] = mapPagerDuty(account([layer('L', { restrictions })]), { now: NOW }).schedules[0].layers;
    expect(l.restrictions).toEqual([
      { type: 'daily', start_time: '20:00', duration_seconds: 43_200 },
      { type: 'weekly', start_day: 6, start_time: '09:00', duration_seconds: 172_800 },
    ]);
  });

  it.each([
    [{ rotation_turn_length_seconds: 5_400 }, /turn length of 5400 s is not a whole number of hours/],
    [
      { restrictions: [{ type: 'daily_restriction', start_time_of_day: '08:00:45', start_day_of_week: null, duration_seconds: 60 }] },
      /08:00:45: Klaxon's windows start on the minute/,
    ],
    [{ restrictions: [{ type: 'monthly_restriction', start_time_of_day: '08:00:00', start_day_of_week: null, duration_seconds: 60 }] }, /monthly_restriction/],
    [
      { restrictions: [{ type: 'daily_restriction', start_time_of_day: '08:00:00', start_day_of_week: null, duration_seconds: 90_000 }] },
      /daily restriction lasts 90000 s/,
    ],
    [{ end: '2026-06-01T00:00:00Z' }, /ended at 2026-06-01/],
    [{ users: [ref('PGHOST')] }, /PGHOST are not in PagerDuty's user list/],
    [{ rotation_virtual_start: '2026-01-05T09:00:20Z', start: '2026-01-05T09:00:20Z' }, /hands off at 10:00:20/],
  ])('when a layer has %o, then it is skipped with why, and so is a schedule left without layers', (extra, why) => {
    const plan = mapPagerDuty(account([layer('L', extra as Partial<PdLayer>)]), { now: NOW });
    expect(plan.schedules).toEqual([]);
    expect(plan.skipped).toEqual([
      { kind: 'schedule', external_id: 'S/L', name: 'Sched / L', why: expect.stringMatching(why) },
      { kind: 'schedule', external_id: 'S', name: 'Sched', why: expect.stringMatching(/none of its layers/) },
    ]);
  });

  it('when a layer ends in the future, then it is kept and the end is reported', () => {
    const plan = mapPagerDuty(account([layer('L', { end: '2027-06-01T00:00:00Z' })]), { now: NOW });
    expect(plan.schedules[0].layers).toHaveLength(1);
    expect(plan.skipped).toEqual([expect.objectContaining({ external_id: 'S/L', why: expect.stringMatching(/ends at 2027-06-01.*do not end/) })]);
  });

  it('when the zone is not an IANA zone, then the schedule is skipped', () => {
    const data = account([layer('L')]);
    data.schedules[0].time_zone = 'Mars/Olympus';
    expect(mapPagerDuty(data, { now: NOW }).skipped).toEqual([expect.objectContaining({ external_id: 'S', why: expect.stringMatching(/Mars\/Olympus/) })]);
  });

  it('when overrides have ended or name someone unknown, then only the future ones of known people come', () => {
    const data = account([layer('L')]);
    data.schedules[0].overrides = [
      { id: 'O1', start: '2026-12-01T00:00:00Z', end: '2026-12-02T00:00:00Z', user: { id: 'PB' } },
      { id: 'O2', start: '2026-01-01T00:00:00Z', end: '2026-01-02T00:00:00Z', user: { id: 'PB' } },
      { id: 'O3', start: '2026-12-01T00:00:00Z', end: '2026-12-02T00:00:00Z', user: { id: 'PX' } },
    ];
    const plan = mapPagerDuty(data, { now: NOW });
    expect(plan.schedules[0].overrides).toEqual([{ externalId: 'O1', user: 'PB', from: '2026-12-01T00:00:00Z', to: '2026-12-02T00:00:00Z' }]);
    expect(plan.skipped.map((s) => s.external_id)).toEqual(['S/overrides/O3']);
  });
});

describe('PagerDuty policies, services and integrations', () => {
  const data = () =>
    account([layer('L')], {
      teams: [{ id: 'T', name: 'Team', members: [{ user: { id: 'PA' } }, { user: { id: 'PZ' } }] }],
      escalationPolicies: [
        {
          id: 'E',
          name: 'Policy',
          num_loops: 12,
          escalation_rules: [
            { id: 'R1', escalation_delay_in_minutes: 5, targets: [{ id: 'S', type: 'schedule_reference' }] },
            {
              id: 'R2',
              escalation_delay_in_minutes: 5,
              targets: [
                { id: 'PB', type: 'user_reference' },
                { id: 'X', type: 'escalation_policy_reference' },
              ],
            },
          ],
          teams: [{ id: 'T' }],
        },
      ],
      services: [
        {
          id: 'V',
          name: 'Svc',
          description: ' ',
          escalation_policy: { id: 'E' },
          teams: [],
          integrations: [
            { id: 'I1', type: 'events_api_v2_inbound_integration', name: 'Prom', integration_key: 'ABCDEF00ABCDEF00ABCDEF00ABCDEF00' },
            { id: 'I2', type: 'generic_events_api_inbound_integration', name: 'Old', integration_key: 'abcdef00abcdef00abcdef00abcdef01' },
            { id: 'I3', type: 'events_api_v2_inbound_integration', name: 'Broken', integration_key: 'not-a-key' },
          ],
        },
      ],
    });

  it('when rules have delays and loops, then steps keep the delays, targets are typed, and loops past 9 are capped and reported', () => {
    const plan = mapPagerDuty(data(), { now: NOW });
    expect(plan.policies).toEqual([
      {
        externalId: 'E',
        name: 'Policy',
        repeat: 9,
        steps: [
          { delaySeconds: 300, targets: [{ type: 'schedule', externalId: 'S' }] },
          { delaySeconds: 300, targets: [{ type: 'user', externalId: 'PB' }] },
        ],
      },
    ]);
    expect(plan.skipped).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ external_id: 'E/R2/X', why: expect.stringMatching(/escalation_policy_reference/) }),
        expect.objectContaining({ external_id: 'E', why: expect.stringMatching(/loops 12 times/) }),
      ]),
    );
  });

  it('when a service has no team, then its policy’s team owns it; team members outside the user list are left out', () => {
    const plan = mapPagerDuty(data(), { now: NOW });
    expect(plan.services).toEqual([{ externalId: 'V', name: 'Svc', description: null, policy: 'E', team: 'T' }]);
    expect(plan.teams).toEqual([{ externalId: 'T', name: 'Team', members: ['PA'] }]);
  });

  it('when integrations are listed, then only Events API v2 keys become sources (lower-cased), the others are reported', () => {
    const plan = mapPagerDuty(data(), { now: NOW });
    expect(plan.sources).toEqual([{ externalId: 'I1', name: 'Prom', service: 'V', routingKey: 'abcdef00abcdef00abcdef00abcdef00' }]);
    expect(plan.skipped.filter((s) => s.kind === 'source').map((s) => [s.external_id, s.why])).toEqual([
      ['I2', expect.stringMatching(/generic_events_api_inbound_integration: only Events API v2/)],
      ['I3', expect.stringMatching(/did not give a 32-character integration key/)],
    ]);
  });

  it('when a user has no email, then they are skipped (people are matched by email)', () => {
    const d = data();
    d.users.push({ id: 'PN', name: 'No Mail', email: '' });
    expect(mapPagerDuty(d, { now: NOW }).skipped).toContainEqual({ kind: 'user', external_id: 'PN', name: 'No Mail', why: expect.stringMatching(/no email/) });
  });
});
