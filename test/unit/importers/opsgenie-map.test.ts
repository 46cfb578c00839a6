import { mapOpsgenie, windowsOf } from '../../../src/integrations/opsgenie/import-map';
import type { OgEscalation, OgRotation, OpsgenieData } from '../../../src/integrations/opsgenie/import-schemas';

const NOW = new Date('2026-11-27T00:00:00Z');
const part = (id: string) => ({ type: 'user', id, username: `${id}@example.com` });

function rotation(id: string, extra: Partial<OgRotation> = {}): OgRotation {
  return { id, name: id, startDate: '2026-01-05T08:00:00Z', type: 'daily', length: 1, participants: [part('a'), part('b')], ...extra };
}

function account(extra: Partial<OpsgenieData> = {}): OpsgenieData {
  return {
    users: ['a', 'b'].map((id) => ({ id, username: `${id}@example.com`, fullName: id.toUpperCase(), contacts: [], notificationRules: [] })),
    teams: [{ id: 'T', name: 'Ops', members: [{ user: { id: 'a' } }] }],
    schedules: [{ id: 'S', name: 'Ops_schedule', timezone: 'UTC', enabled: true, rotations: [rotation('R')], overrides: [] }],
    escalations: [],
    services: [],
    integrations: [],
    ...extra,
  };
}

const rule = (minutes: number, recipient: Record<string, string>, extra: Partial<OgEscalation['rules'][number]> = {}) => ({
  condition: 'if-not-acked',
  notifyType: 'default',
  delay: { timeAmount: minutes, timeUnit: 'minutes' },
  recipient: recipient as OgEscalation['rules'][number]['recipient'],
  ...extra,
});

describe('Opsgenie time restrictions as Klaxon windows', () => {
  it('when a time-of-day restriction wraps past midnight, then it is one daily window of that length', () => {
    expect(windowsOf({ type: 'time-of-day', restriction: { startHour: 18, startMin: 30, endHour: 9, endMin: 0 } })).toEqual({
      ok: true,
      value: [{ type: 'daily', start_time: '18:30', duration_seconds: 14.5 * 3600 }],
    });
  });

  it('when weekday windows run Friday evening to Monday morning, then they are weekly windows from the start day', () => {
    const tr = { type: 'weekday-and-time-of-day', restrictions: [{ startDay: 'friday', startHour: 18, startMin: 0, endDay: 'monday', endHour: 9, endMin: 0 }] };
    expect(windowsOf(tr)).toEqual({ ok: true, value: [{ type: 'weekly', start_day: 5, start_time: '18:00', duration_seconds: 63 * 3600 }] });
  });

  it('when a restriction names a day that is not one, then the rotation cannot be mapped', () => {
    const tr = { type: 'weekday-and-time-of-day', restrictions: [{ startDay: 'funday', startHour: 9, startMin: 0, endDay: 'monday', endHour: 17, endMin: 0 }] };
    expect(windowsOf(tr)).toMatchObject({ ok: false });
  });
});

describe('Opsgenie schedules', () => {
  it('when an hourly rotation of 12 starts 08:00 UTC in Berlin, then it hands off at 09:00 local every 12 hours', () => {
    const data = account();
    data.schedules[0] = { ...data.schedules[0], timezone: 'Europe/Berlin', rotations: [rotation('R', { type: 'hourly', length: 12 })] };
    expect(mapOpsgenie(data, { now: NOW }).schedules[0].layers[0]).toMatchObject({
      rotation: { unit: 'hours', length: 12 },
      handoff_time: '09:00',
      start: '2026-01-05',
    });
  });

  it('when participants are a team, an escalation or "none", then they are left out of the rotation and each is reported', () => {
    const data = account();
    data.schedules[0].rotations = [
      rotation('R', {
        participants: [part('a'), { type: 'team', id: 'T', name: 'Ops' }, { type: 'none' }, { type: 'escalation', id: 'E', name: 'Esc' }, part('b')],
      }),
    ];
    const plan = mapOpsgenie(data, { now: NOW });
    expect(plan.schedules[0].layers[0].users).toEqual(['a', 'b']);
    expect(plan.skipped.map((s) => s.why)).toEqual([
      expect.stringMatching(/participant Ops of type team/),
      expect.stringMatching(/type none/),
      expect.stringMatching(/participant Esc of type escalation/),
    ]);
  });

  it('when two rotations are on call at the same time, then the overlap is reported; when they never meet, then not', () => {
    const data = account();
    data.schedules[0].rotations = [rotation('R1'), rotation('R2')];
    expect(mapOpsgenie(data, { now: NOW }).skipped).toEqual([
      expect.objectContaining({ external_id: 'S/R1', why: expect.stringMatching(/together with R2 \(e\.g\. Monday 00:00\)/) }),
    ]);
    data.schedules[0].rotations = [
      rotation('R1', { timeRestriction: { type: 'time-of-day', restriction: { startHour: 9, startMin: 0, endHour: 17, endMin: 0 } } }),
      rotation('R2', { timeRestriction: { type: 'time-of-day', restriction: { startHour: 17, startMin: 0, endHour: 9, endMin: 0 } } }),
    ];
    expect(mapOpsgenie(data, { now: NOW }).skipped).toEqual([]);
  });

  it('when an override covers only one of two rotations, then it is reported, not widened to the schedule', () => {
    const data = account();
    data.schedules[0].rotations = [
      rotation('R1', { timeRestriction: { type: 'time-of-day', restriction: { startHour: 9, startMin: 0, endHour: 17, endMin: 0 } } }),
      rotation('R2', { timeRestriction: { type: 'time-of-day', restriction: { startHour: 17, startMin: 0, endHour: 9, endMin: 0 } } }),
    ];
    data.schedules[0].overrides = [
      { alias: 'all', user: part('b'), startDate: '2026-12-01T00:00:00Z', endDate: '2026-12-02T00:00:00Z', rotations: [] },
      { alias: 'one', user: part('b'), startDate: '2026-12-01T00:00:00Z', endDate: '2026-12-02T00:00:00Z', rotations: [{ id: 'R1' }] },
    ];
    const plan = mapOpsgenie(data, { now: NOW });
    expect(plan.schedules[0].overrides.map((o) => o.externalId)).toEqual(['all']);
    expect(plan.skipped).toEqual([expect.objectContaining({ external_id: 'S/overrides/one', why: expect.stringMatching(/only some rotations/) })]);
  });

  it('when a schedule is disabled, then it is skipped', () => {
    const data = account();
    data.schedules[0].enabled = false;
    expect(mapOpsgenie(data, { now: NOW }).skipped).toEqual([expect.objectContaining({ external_id: 'S', why: 'it is disabled in Opsgenie' })]);
  });
});

describe('Opsgenie escalations', () => {
  const escalation = (rules: OgEscalation['rules'], repeat?: OgEscalation['repeat']): OgEscalation => ({
    id: 'E',
    name: 'Ops_escalation',
    ownerTeam: { id: 'T' },
    rules,
    repeat,
  });

  it('when rules count from the alert, then rules at the same delay share a step and each step waits until the next', () => {
    const data = account({
      escalations: [
        escalation(
          [
            rule(10, { type: 'user', id: 'b' }),
            rule(0, { type: 'schedule', id: 'S' }),
            rule(0, { type: 'user', id: 'a' }),
            rule(1, { type: 'team', id: 'T' }, { notifyType: 'all', delay: { timeAmount: 1, timeUnit: 'hours' } }),
          ],
          {
            waitInterval: 15,
            count: 3,
          },
        ),
      ],
    });
    expect(mapOpsgenie(data, { now: NOW }).policies).toEqual([
      {
        externalId: 'E',
        name: 'Ops_escalation',
        repeat: 3,
        steps: [
          {
            delaySeconds: 600,
            targets: [
              { type: 'schedule', externalId: 'S' },
              { type: 'user', externalId: 'a' },
            ],
          },
          { delaySeconds: 3000, targets: [{ type: 'user', externalId: 'b' }] },
          { delaySeconds: 900, targets: [{ type: 'team', externalId: 'T' }] },
        ],
      },
    ]);
  });

  it.each([
    [{ condition: 'if-not-closed' }, { type: 'user', id: 'a' }, /condition if-not-closed/],
    [{ notifyType: 'next' }, { type: 'schedule', id: 'S' }, /notifyType next/],
    [{ notifyType: 'previous' }, { type: 'schedule', id: 'S' }, /notifyType previous/],
    [{ notifyType: 'default' }, { type: 'team', id: 'T', name: 'Ops' }, /notifyType default for team Ops .*routing rules/],
    [{ notifyType: 'admins' }, { type: 'team', id: 'T' }, /notifyType admins/],
    [{ notifyType: 'random' }, { type: 'team', id: 'T' }, /notifyType random/],
    [{}, { type: 'escalation', id: 'X' }, /type escalation/],
  ])('when a rule has %o for %o, then it is skipped with why', (extra, recipient, why) => {
    const data = account({ escalations: [escalation([rule(0, { type: 'user', id: 'a' }), rule(5, recipient, extra)])] });
    const plan = mapOpsgenie(data, { now: NOW });
    expect(plan.policies[0].steps).toHaveLength(1);
    expect(plan.skipped).toEqual([{ kind: 'escalation_policy', external_id: 'E/rules/1', name: 'Ops_escalation / rule 2', why: expect.stringMatching(why) }]);
  });

  it('when the first rule waits, then Klaxon’s first step pages at once, and that is reported', () => {
    const plan = mapOpsgenie(account({ escalations: [escalation([rule(5, { type: 'user', id: 'a' })])] }), { now: NOW });
    expect(plan.skipped).toEqual([expect.objectContaining({ external_id: 'E', why: expect.stringMatching(/first rule waits 5 minutes/) })]);
  });
});

describe('Opsgenie services and integrations', () => {
  it('when API integrations belong to teams, then their keys (without dashes) feed the team’s first service, or one made for the team', () => {
    const data = account({
      teams: [
        { id: 'T', name: 'Ops', members: [] },
        { id: 'M', name: 'Mobile', members: [] },
      ],
      escalations: [{ id: 'E', name: 'Ops_escalation', ownerTeam: { id: 'T' }, rules: [rule(0, { type: 'user', id: 'a' })] }],
      services: [
        { id: 'V2', name: 'Zeta', teamId: 'T' },
        { id: 'V1', name: 'Alpha', teamId: 'T', description: 'first' },
      ],
      integrations: [
        { id: 'I1', name: 'Prom', type: 'API', enabled: true, teamId: 'T', apiKey: '3F1E9A44-8C2B-4D71-9B1A-2E6C5D7F8A90' },
        { id: 'I2', name: 'App', type: 'API', enabled: true, ownerTeam: { id: 'M' }, apiKey: '0f0e0d0c-0b0a-4908-8706-050403020100' },
        { id: 'I3', name: 'DD', type: 'Datadog', enabled: true, teamId: 'T' },
        { id: 'I4', name: 'Off', type: 'API', enabled: false, teamId: 'T', apiKey: '0f0e0d0c-0b0a-4908-8706-050403020101' },
        { id: 'I5', name: 'Keyless', type: 'API', enabled: true, teamId: 'T' },
      ],
    });
    const plan = mapOpsgenie(data, { now: NOW });
    expect(plan.services).toEqual([
      { externalId: 'V2', name: 'Zeta', description: null, policy: 'E', team: 'T' },
      { externalId: 'V1', name: 'Alpha', description: 'first', policy: 'E', team: 'T' },
      { externalId: 'team:M', name: 'Mobile', description: 'Alerts of the Opsgenie team', policy: null, team: 'M' },
    ]);
    expect(plan.sources).toEqual([
      { externalId: 'I1', name: 'Prom', service: 'V1', routingKey: '3f1e9a448c2b4d719b1a2e6c5d7f8a90' },
      { externalId: 'I2', name: 'App', service: 'team:M', routingKey: '0f0e0d0c0b0a49088706050403020100' },
    ]);
    expect(plan.skipped.map((s) => [s.external_id, s.why])).toEqual([
      ['I3', expect.stringMatching(/type Datadog/)],
      ['I4', 'it is disabled in Opsgenie'],
      ['I5', 'Opsgenie did not give its API key'],
    ]);
  });
});
