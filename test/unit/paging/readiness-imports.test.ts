import { readinessGaps } from '../../../src/domain/paging/readiness';

// Readiness after an import (docs/readiness.md, docs/importers.md): imported numbers nobody has
// confirmed in Klaxon yet, people the import had to invite, and Stakeholders left in a schedule.
const HOUR = 3_600_000;
const base = {
  from: 0,
  to: HOUR,
  policies: [],
  names: new Map([
    ['ada', 'Ada'],
    ['bob', 'Bob'],
    ['cy', 'Cy'],
  ]),
};

describe('readiness after an import', () => {
  it('when an on-call person is paged on imported methods no page or drill reached, then their shift is imported_unconfirmed; a slow rule still comes first', () => {
    const gaps = readinessGaps({
      ...base,
      schedules: [{ id: 's', name: 'Nights', spans: [{ start: 0, end: HOUR, userIds: ['ada', 'bob'] }] }],
      reach: new Map([
        ['ada', 0],
        ['bob', 900],
      ]),
      unconfirmed: new Map([
        ['ada', 'sms +15550100001'],
        ['bob', 'voice +15550100002'],
      ]),
    });
    expect(gaps.map((g) => [g.kind, g.user_id, g.detail])).toEqual([
      [
        'imported_unconfirmed',
        'ada',
        'Ada is on call on "Nights" and is paged on contact methods imported, not yet confirmed in Klaxon (sms +15550100001): a test page or drill that reaches them confirms them',
      ],
      ['rules_too_slow', 'bob', 'Bob is on call on "Nights" and is first paged 15 min after their step (more than 5 min)'],
    ]);
  });

  it('when a Stakeholder is still in a schedule, then their shift says they are never paged', () => {
    const gaps = readinessGaps({
      ...base,
      schedules: [{ id: 's', name: 'Days', spans: [{ start: 0, end: HOUR, userIds: ['cy'] }] }],
      reach: new Map([['cy', null]]),
      neverPaged: new Set(['cy']),
    });
    expect(gaps.map((g) => [g.kind, g.detail])).toEqual([['no_working_contact', 'Cy is on call on "Days" and is a Stakeholder, who is never paged']]);
  });

  it('when the import left an invited person out of a rotation and a step, then each place is an invited_not_member gap over the window', () => {
    const gaps = readinessGaps({
      ...base,
      schedules: [],
      reach: new Map(),
      leftOut: [
        { email: 'dee@example.com', scheduleId: 's', policyId: null, place: 'the rotation "Nights / Layer 1"' },
        { email: 'dee@example.com', scheduleId: null, policyId: 'p', place: 'step 2 of "Platform"' },
      ],
    });
    expect(gaps).toEqual([
      {
        kind: 'invited_not_member',
        schedule_id: 's',
        from: new Date(0).toISOString(),
        to: new Date(HOUR).toISOString(),
        detail:
          'dee@example.com is missing from the rotation "Nights / Layer 1": their Klaxon account is outside this workspace, so the import invited them instead; once they accept, import again',
      },
      expect.objectContaining({
        kind: 'invited_not_member',
        policy_id: 'p',
        detail: expect.stringMatching(/^dee@example.com is missing from step 2 of "Platform"/),
      }),
    ]);
  });
});
