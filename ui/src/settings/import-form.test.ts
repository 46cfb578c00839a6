import { describe, expect, it } from 'vitest';
import { bodyOf, klaxonIdOf, peopleOf, total, type ImportReport } from './import-form';

describe('the import form', () => {
  it('when PagerDuty is chosen, then the credential goes as api_token, trimmed, and an empty URL is left out', () => {
    expect(bodyOf({ system: 'pagerduty', credential: ' u+abc ', apiUrl: ' ' }, true)).toEqual({ api_token: 'u+abc', dry_run: true });
  });

  it('when Opsgenie is chosen with the EU URL, then the credential goes as api_key with the URL', () => {
    expect(bodyOf({ system: 'opsgenie', credential: 'k', apiUrl: 'https://api.eu.opsgenie.com' }, false)).toEqual({
      api_key: 'k',
      api_url: 'https://api.eu.opsgenie.com',
      dry_run: false,
    });
  });

  it('when an object has no id, then it reads "new" in a plan, "invited" for a person the report invites', () => {
    const skipped = [
      { kind: 'user' as const, external_id: 'P2', name: 'Gil', why: 'gil@example.com already has a Klaxon account outside this workspace…: invited as MEMBER' },
    ];
    expect(klaxonIdOf({ kind: 'user', external_id: 'P1', id: null, name: 'Frank' }, true, { skipped })).toBe('new');
    expect(klaxonIdOf({ kind: 'user', external_id: 'P2', id: null, name: 'Gil' }, true, { skipped })).toBe('invited');
    expect(klaxonIdOf({ kind: 'team', external_id: 'T1', id: null, name: 'Ops' }, true)).toBe('new');
    expect(klaxonIdOf({ kind: 'team', external_id: 'T1', id: 'abc', name: 'Ops' }, true)).toBe('abc');
    expect(total({ user: 1, contact_method: 4, notification_rule: 2, team: 2, schedule: 0, escalation_policy: 0, service: 3, source: 0 })).toBe(12);
  });

  it('when a report maps people, contact methods and rules, then each person lists theirs, and says how they come', () => {
    const report: ImportReport = {
      created: { user: 1, contact_method: 2, notification_rule: 1, team: 0, schedule: 0, escalation_policy: 0, service: 0, source: 0 },
      updated: { user: 0, contact_method: 0, notification_rule: 0, team: 0, schedule: 0, escalation_policy: 0, service: 0, source: 0 },
      skipped: [{ kind: 'user', external_id: 'P2', name: 'Gil', why: 'invited as MEMBER' }],
      mapping: [
        { kind: 'user', external_id: 'P1', id: null, name: 'Frank Fisher' },
        { kind: 'user', external_id: 'P2', id: null, name: 'Gil' },
        { kind: 'user', external_id: 'P3', id: 'u3', name: 'Ann / Lee' },
        { kind: 'contact_method', external_id: 'P1/C1', id: null, name: 'Frank Fisher / Mobile (+14155550106)' },
        { kind: 'contact_method', external_id: 'P10/C9', id: null, name: 'Someone else / Mobile (+14155550199)' },
        { kind: 'notification_rule', external_id: 'P1/R1', id: null, name: 'Frank Fisher / at once' },
      ],
    };
    expect(peopleOf(report)).toEqual([
      { externalId: 'P1', name: 'Frank Fisher', status: 'new member', contactMethods: ['Mobile (+14155550106)'], rules: ['at once'] },
      { externalId: 'P2', name: 'Gil', status: 'invited', contactMethods: [], rules: [] },
      { externalId: 'P3', name: 'Ann / Lee', status: 'member', contactMethods: [], rules: [] },
    ]);
  });
});
