import { zeroCounts } from '../../../src/domain/importers/plan';
import { reportText } from '../../../src/services/importers/report-text';
import { askedWaitMs, ImportSourceError, sourceHttp } from '../../../src/services/importers/source-http';
import type { GetJsonResult } from '../../../src/services/targets';

/** A source whose answers are scripted; it records the URLs asked and the waits taken. */
function scripted(answers: GetJsonResult[]) {
  const urls: string[] = [];
  const waits: number[] = [];
  const http = sourceHttp({
    label: 'PagerDuty',
    baseUrl: 'https://api.example.com/pd/',
    headers: { Authorization: 'Token token=secret' },
    allowPrivate: false,
    sleep: async (ms) => void waits.push(ms),
    get: async (url) => {
      urls.push(url);
      return answers.shift() ?? { ok: true, status: 200, headers: {}, body: { ok: true } };
    },
  });
  return { http, urls, waits };
}

const status = (s: number, headers: Record<string, string> = {}): GetJsonResult => ({ ok: true, status: s, headers, body: undefined });

describe('reading a source API', () => {
  it('when asked for a path with repeated keys, then the base path is kept and each value is sent', async () => {
    const { http, urls } = scripted([]);
    await http.get('/services', { 'include[]': ['integrations'], limit: 100, offset: undefined });
    expect(urls).toEqual(['https://api.example.com/pd/services?include%5B%5D=integrations&limit=100']);
  });

  it('when 429 asks for 2 s and then 503 says nothing, then it waits 2 s, then backs off, then succeeds', async () => {
    const { http, waits } = scripted([status(429, { 'retry-after': '2' }), status(503)]);
    expect(await http.get('/users')).toEqual({ ok: true });
    expect(waits[0]).toBe(2000);
    expect(waits[1]).toBeGreaterThanOrEqual(250);
    expect(waits[1]).toBeLessThanOrEqual(500);
    expect(http.requests).toBe(3);
  });

  it('when every attempt fails, then five attempts are made and the error names the origin, never the token', async () => {
    const { http, waits } = scripted(Array.from({ length: 9 }, () => status(500)));
    const err = (await http.get('/users').catch((e: unknown) => e)) as ImportSourceError;
    expect(err).toBeInstanceOf(ImportSourceError);
    expect(err.message).toBe('could not read PagerDuty at https://api.example.com (status 500, 5 attempts): try again later');
    expect(waits).toHaveLength(4);
    expect(JSON.stringify(err)).not.toContain('secret');
  });

  it('when 403 or 404 come back, then there is no retry', async () => {
    const refused = scripted([status(403)]);
    await expect(refused.http.get('/users')).rejects.toMatchObject({ code: 'source_token_refused' });
    const missing = scripted([status(404)]);
    await expect(missing.http.get('/users')).rejects.toMatchObject({ code: 'source_bad_answer', message: 'PagerDuty answered status 404 for /users' });
    expect(missing.http.requests).toBe(1);
  });

  it('when a refusal by the SSRF guard comes back, then there is no retry', async () => {
    const { http } = scripted([{ ok: false, status: null, headers: {}, error: 'target resolves to a private address' }]);
    await expect(http.get('/users')).rejects.toMatchObject({ code: 'source_bad_answer', message: 'PagerDuty target resolves to a private address for /users' });
    expect(http.requests).toBe(1);
  });

  it('when the base URL has credentials or is not http(s), then it is refused before any request', () => {
    expect(() => sourceHttp({ label: 'Opsgenie', baseUrl: 'https://user:pw@api.opsgenie.com', headers: {}, allowPrivate: false })).toThrow(
      /must not contain a user name or password/,
    );
    expect(() => sourceHttp({ label: 'Opsgenie', baseUrl: 'ftp://api.opsgenie.com', headers: {}, allowPrivate: false })).toThrow(ImportSourceError);
  });

  it('when waits are asked in seconds, as a date, or as PagerDuty’s ratelimit-reset, then each is read', () => {
    const now = Date.parse('2026-11-27T00:00:00Z');
    expect(askedWaitMs({ 'retry-after': '3' }, now)).toBe(3000);
    expect(askedWaitMs({ 'retry-after': 'Fri, 27 Nov 2026 00:00:05 GMT' }, now)).toBe(5000);
    expect(askedWaitMs({ 'ratelimit-reset': '7' }, now)).toBe(7000);
    expect(askedWaitMs({}, now)).toBeUndefined();
  });
});

describe('the report for people', () => {
  it('when a dry run plans and skips, then the text says what would be created and lists each skip with why', () => {
    const created = { ...zeroCounts(), user: 2, schedule: 1 };
    const text = reportText(
      'Opsgenie',
      {
        created,
        updated: zeroCounts(),
        skipped: [{ kind: 'escalation_policy', external_id: 'E/rules/1', name: 'Esc / rule 2', why: 'its condition if-not-closed' }],
        mapping: [],
      },
      true,
    );
    expect(text).toBe(
      [
        'Import from Opsgenie: the plan (dry run, nothing was written)',
        'Would create: 2 users, 1 schedule (new members get a welcome email)',
        'Would update: nothing',
        'In Klaxon: 0 object(s) mapped from Opsgenie',
        'Skipped or changed on the way (1):',
        '  - escalation policy "Esc / rule 2" (E/rules/1): its condition if-not-closed',
        '',
      ].join('\n'),
    );
  });
});
