import { describe, expect, it } from 'vitest';
import { bodyOf, klaxonIdOf, total } from './import-form';

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

  it('when an object has no id, then it reads "invited" for people, "new" in a plan', () => {
    expect(klaxonIdOf({ kind: 'user', external_id: 'P1', id: null, name: 'Frank' }, true)).toBe('invited');
    expect(klaxonIdOf({ kind: 'team', external_id: 'T1', id: null, name: 'Ops' }, true)).toBe('new');
    expect(klaxonIdOf({ kind: 'team', external_id: 'T1', id: 'abc', name: 'Ops' }, true)).toBe('abc');
    expect(total({ user: 1, team: 2, schedule: 0, escalation_policy: 0, service: 3, source: 0 })).toBe(6);
  });
});
