import fc from 'fast-check';
import { DEFAULT_FORM_A_SEVERITY, parseFormA } from '../../../src/domain/ingest/form-a';

describe('Form A', () => {
  it('when every field is given, then the event carries them with severity on the incident scale', () => {
    const r = parseFormA({
      title: 'Disk full',
      message: 'sda1 at 99%',
      severity: 'Warning',
      description: 'db-1',
      dedup_key: 'disk-db-1',
      source: 'nagios',
      metadata: { host: 'db-1' },
    });
    expect(r).toEqual({
      ok: true,
      event: {
        title: 'Disk full',
        message: 'sda1 at 99%',
        description: 'db-1',
        severity: 'MEDIUM',
        dedupKey: 'disk-db-1',
        source: 'nagios',
        metadata: { host: 'db-1' },
      },
    });
  });

  it.each([
    ['critical', 'CRITICAL'],
    ['HIGH', 'HIGH'],
    ['error', 'HIGH'],
    ['Medium', 'MEDIUM'],
    ['warning', 'MEDIUM'],
    ['low', 'LOW'],
    ['INFO', 'INFO'],
  ])('when severity is %s, then the incident severity is %s', (given, expected) => {
    const r = parseFormA({ title: 't', severity: given });
    expect(r.ok && r.event.severity).toBe(expected);
  });

  it('when severity is absent, then the default applies; when unknown, then a 400 message', () => {
    const r = parseFormA({ message: 'x' });
    expect(r.ok && r.event.severity).toBe(DEFAULT_FORM_A_SEVERITY);
    expect(parseFormA({ title: 't', severity: 'urgent' })).toEqual({ ok: false, message: expect.stringMatching(/severity must be one of/) });
  });

  it('when only message is given, then its first line (at most 255 characters) is the title', () => {
    const r = parseFormA({ message: `${'m'.repeat(300)}\nsecond line` });
    expect(r.ok && r.event.title).toBe('m'.repeat(255));
    expect(r.ok && r.event.message).toContain('second line');
  });

  it.each([
    [{}, /at least one of title or message/],
    [{ title: '  ', message: '' }, /at least one of title or message/],
    [{ title: 5 }, /title must be a string/],
    [{ title: 'x'.repeat(256) }, /title must be at most 255/],
    [{ title: 't', metadata: [1, 2] }, /metadata must be an object/],
    [{ title: 't', metadata: 'x' }, /metadata must be an object/],
    [{ title: 't', dedup_key: '' }, /dedup_key must not be empty/],
    [{ title: 't', metadata: { blob: 'x'.repeat(70_000) } }, /metadata must be at most 64 KiB/],
    [[{ title: 't' }], /body must be a JSON object/],
    ['title', /body must be a JSON object/],
    [null, /body must be a JSON object/],
  ])('when the body is %j, then a readable error', (body, message) => {
    const r = parseFormA(body);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(message);
  });

  it('when given any JSON value, then it never throws and accepts only bodies with a title or message string', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const r = parseFormA(value);
        if (r.ok) {
          const b = value as Record<string, unknown>;
          expect(typeof b.title === 'string' || typeof b.message === 'string').toBe(true);
          expect(r.event.title.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 500 },
    );
  });
});
