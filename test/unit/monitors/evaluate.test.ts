import { evaluateResponse } from '../../../src/domain/monitors/evaluate';

describe('judging a monitor’s response', () => {
  const any2xx = { expectedStatusCodes: null, keyword: null };

  it.each([
    [200, true],
    [204, true],
    [299, true],
    [301, false],
    [404, false],
    [500, false],
  ])('when no statuses are listed and the answer is %i, then ok = %s', (status, ok) => {
    const verdict = evaluateResponse({ status, body: '' }, any2xx);
    expect(verdict.ok).toBe(ok);
    if (!verdict.ok) expect(verdict.error).toBe(`unexpected status ${status} (expected 2xx)`);
  });

  it('when statuses are listed, then exactly those are up (a 401 can be the healthy answer)', () => {
    const expect401 = { expectedStatusCodes: [401, 403], keyword: null };
    expect(evaluateResponse({ status: 401, body: '' }, expect401)).toEqual({ ok: true, error: null });
    expect(evaluateResponse({ status: 200, body: '' }, expect401)).toEqual({ ok: false, error: 'unexpected status 200 (expected 401, 403)' });
  });

  it('when a keyword is asked for, then the body must contain it as written; the status is judged first', () => {
    const keyword = { expectedStatusCodes: null, keyword: 'All systems go' };
    expect(evaluateResponse({ status: 200, body: '<p>All systems go</p>' }, keyword).ok).toBe(true);
    expect(evaluateResponse({ status: 200, body: '<p>all systems go</p>' }, keyword)).toEqual({
      ok: false,
      error: 'keyword "All systems go" not found in the response',
    });
    expect(evaluateResponse({ status: 503, body: 'All systems go' }, keyword)).toEqual({ ok: false, error: 'unexpected status 503 (expected 2xx)' });
  });
});
