import { daysOf, parseDateRange, rangeInstants } from '../../../src/domain/reports/date-range';

const NOW = new Date('2026-12-10T12:00:00Z');
const read = (input: string | undefined, opts: { zone?: string; historyDays?: number; now?: Date } = {}) =>
  parseDateRange(input, { now: opts.now ?? NOW, zone: opts.zone ?? 'UTC', historyDays: opts.historyDays ?? 90 });

describe('report date ranges', () => {
  it('when no range is given, then it is the last 30 days including today', () => {
    expect(read(undefined)).toEqual({ ok: true, range: { from: '2026-11-11', to: '2026-12-10', zone: 'UTC' } });
  });

  it('when no range is given on a plan keeping 7 days, then the default is cut to the history window', () => {
    expect(read(undefined, { historyDays: 7 })).toEqual({ ok: true, range: { from: '2026-12-03', to: '2026-12-10', zone: 'UTC' } });
  });

  it('when the reader is in Tokyo, then "today" is the Tokyo date', () => {
    const lateUtc = new Date('2026-12-10T20:00:00Z'); // 05:00 on the 11th in Tokyo
    expect(read(undefined, { zone: 'Asia/Tokyo', now: lateUtc, historyDays: 7 })).toMatchObject({ ok: true, range: { to: '2026-12-11', from: '2026-12-04' } });
  });

  it.each([
    ['a well-formed range', '2026-12-01 to 2026-12-05', { ok: true, range: { from: '2026-12-01', to: '2026-12-05', zone: 'UTC' } }],
    ['a single day', '2026-12-05 to 2026-12-05', { ok: true, range: { from: '2026-12-05', to: '2026-12-05', zone: 'UTC' } }],
    ['the first day of the window', '2026-09-11 to 2026-12-10', { ok: true, range: { from: '2026-09-11', to: '2026-12-10', zone: 'UTC' } }],
  ])('when the range is %s, then it is read as given', (_what, input, expected) => {
    expect(read(input)).toEqual(expected);
  });

  it.each([
    ['an end before its start', '2026-12-05 to 2026-12-01', /^dateRange: the end \(2026-12-01\) is before the start \(2026-12-05\)/],
    [
      'a day before the history window',
      '2026-09-10 to 2026-12-10',
      /^dateRange: starts 2026-09-10, before your plan's history window of 90 days \(2026-09-11 to 2026-12-10, UTC\)/,
    ],
    ['a date that does not exist', '2026-02-30 to 2026-03-01', /^dateRange: expected "YYYY-MM-DD to YYYY-MM-DD"/],
    ['another shape', '2026-12-01..2026-12-05', /^dateRange: expected/],
    ['a single date', '2026-12-01', /^dateRange: expected/],
  ])('when the range is %s, then it is refused naming dateRange', (_what, input, message) => {
    const result = read(input);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(message);
  });

  it('when a range is turned into instants, then it runs from the first midnight to the midnight after the last day, in its zone', () => {
    expect(rangeInstants({ from: '2026-12-01', to: '2026-12-02', zone: 'UTC' })).toEqual({
      start: new Date('2026-12-01T00:00:00Z'),
      end: new Date('2026-12-03T00:00:00Z'),
    });
    expect(rangeInstants({ from: '2026-12-01', to: '2026-12-01', zone: 'Asia/Tokyo' })).toEqual({
      start: new Date('2026-11-30T15:00:00Z'),
      end: new Date('2026-12-01T15:00:00Z'),
    });
    // A day of a daylight-saving change is 23 hours long: the end is still the next midnight.
    expect(rangeInstants({ from: '2026-03-08', to: '2026-03-08', zone: 'America/New_York' })).toEqual({
      start: new Date('2026-03-08T05:00:00Z'),
      end: new Date('2026-03-09T04:00:00Z'),
    });
  });

  it('when the days of a range are listed, then every day is there once, across a month end', () => {
    expect(daysOf({ from: '2026-11-29', to: '2026-12-02', zone: 'UTC' })).toEqual(['2026-11-29', '2026-11-30', '2026-12-01', '2026-12-02']);
  });
});
