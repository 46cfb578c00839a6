import { describe, expect, it } from 'vitest';
import { bulkResults } from './bulk';

describe('bulk results', () => {
  it('when the answer lists each incident done or refused, then each result says which, with the status or the reason', () => {
    expect(
      bulkResults({
        results: [
          { incident_id: 'i1', ok: true, status: 'ACKNOWLEDGED' },
          { incident_id: 'i2', ok: false, code: 'invalid_transition', error: 'incident #2 is RESOLVED' },
        ],
      }),
    ).toEqual([
      { incident_id: 'i1', ok: true, status: 'ACKNOWLEDGED' },
      { incident_id: 'i2', ok: false, error: 'incident #2 is RESOLVED' },
    ]);
  });

  it('when the answer is the list itself, with the incident inside each item or an error object, then it reads the same', () => {
    expect(bulkResults([{ incident: { id: 'i1', status: 'RESOLVED' } }, { incident_id: 'i2', error: { message: 'no such incident' } }])).toEqual([
      { incident_id: 'i1', ok: true, status: 'RESOLVED' },
      { incident_id: 'i2', ok: false, error: 'no such incident' },
    ]);
    expect(bulkResults(null)).toEqual([]);
  });
});
