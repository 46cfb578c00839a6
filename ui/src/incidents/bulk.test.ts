import { describe, expect, it } from 'vitest';
import { bulkResults } from './bulk';

describe('bulk results', () => {
  it('when the answer lists each incident done or refused, then each result says which, with the status or the reason', () => {
    const results = [
      { id: 'i1', ok: true, number: 1, status: 'ACKNOWLEDGED' },
      { id: 'i2', ok: false, code: 'invalid_transition', error: 'incident #2 is RESOLVED' },
    ];
    expect(bulkResults({ results, succeeded: 1, failed: 1 })).toEqual(results);
  });

  it('when the answer holds no list, then there are no results to show', () => {
    expect(bulkResults(null)).toEqual([]);
    expect(bulkResults({})).toEqual([]);
  });
});
