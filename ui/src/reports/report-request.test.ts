import { describe, expect, it } from 'vitest';
import { isRangeProblem, reportRequest } from './report-request';

describe('reportRequest', () => {
  it('when a range ends before it starts or misses a day, then it is not asked for and the problem names dateRange', () => {
    expect(reportRequest('summary', null)).toEqual({ type: 'summary' });
    expect(reportRequest('detailed', { from: '2026-12-01', to: '2026-12-07' })).toEqual({ type: 'detailed', dateRange: '2026-12-01 to 2026-12-07' });
    const backwards = reportRequest('summary', { from: '2026-12-07', to: '2026-12-01' });
    expect(isRangeProblem(backwards) && backwards.message).toBe('dateRange: the end (2026-12-01) is before the start (2026-12-07)');
    expect(isRangeProblem(reportRequest('summary', { from: '', to: '2026-12-01' }))).toBe(true);
  });
});
