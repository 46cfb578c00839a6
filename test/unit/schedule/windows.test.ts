import fc from 'fast-check';
import { onCallAt, shiftsBetween, type Layer, type Restriction } from '../../../src/domain/schedule';
import { instantToWall, wallToInstant, zoneOf } from '../../../src/domain/schedule/local-time';
import { compileWindow, inWindows } from '../../../src/domain/schedule/windows';

// Restriction windows on the schedule's clock: A is always on call in the lower layer, N in the
// upper, restricted one; so N means "inside a window" and A "outside every window".
const [A, N] = ['alice@example.com', 'night@example.com'];
const base: Layer = { name: 'base', users: [A], rotation: { unit: 'weeks', length: 1 }, handoff_time: '00:00', start: '2026-01-01' };
const upper = (restrictions: Restriction[]): Layer => ({ ...base, name: 'upper', users: [N], restrictions });
const HOUR = 3600;

const who = (timeZone: string, restrictions: Restriction[], iso: string) =>
  onCallAt({ timeZone, layers: [base, upper(restrictions)], overrides: [] }, new Date(iso));
const before = (iso: string) => new Date(Date.parse(iso) - 1).toISOString();

/** Expects the window to open exactly at `open` and close exactly at `close` (open inclusive, close exclusive). */
function expectWindow(timeZone: string, restrictions: Restriction[], open: string, close: string) {
  expect([before(open), open, before(close), close].map((t) => who(timeZone, restrictions, t))).toEqual([[A], [N], [N], [A]]);
}

describe('daily windows', () => {
  it('when a daily window is 09:00 for 8 hours, then the layer applies from 09:00 up to, not including, 17:00 local', () => {
    expectWindow('Europe/Berlin', [{ type: 'daily', start_time: '09:00', duration_seconds: 8 * HOUR }], '2026-07-01T07:00:00.000Z', '2026-07-01T15:00:00.000Z');
  });

  it('when a daily window runs past midnight, then it holds until the next morning', () => {
    const nights: Restriction[] = [{ type: 'daily', start_time: '22:00', duration_seconds: 8 * HOUR }];
    expectWindow('Europe/Berlin', nights, '2026-07-01T20:00:00.000Z', '2026-07-02T04:00:00.000Z');
    expect(who('Europe/Berlin', nights, '2026-07-01T22:00:00.000Z')).toEqual([N]); // local midnight
  });

  it('when a layer has two daily windows, then it applies in each and the layer below shows in between', () => {
    const split: Restriction[] = [
      { type: 'daily', start_time: '09:00', duration_seconds: 3 * HOUR },
      { type: 'daily', start_time: '14:00', duration_seconds: 3 * HOUR },
    ];
    expectWindow('UTC', split, '2026-07-01T09:00:00.000Z', '2026-07-01T12:00:00.000Z');
    expectWindow('UTC', split, '2026-07-01T14:00:00.000Z', '2026-07-01T17:00:00.000Z');
  });

  it('when a daily window lasts 86400 seconds, then the layer applies all day, every day, clock changes included', () => {
    const allDay: Restriction[] = [{ type: 'daily', start_time: '09:00', duration_seconds: 86_400 }];
    for (const t of [
      '2026-03-08T06:59:00Z',
      '2026-03-08T07:00:00Z',
      '2026-03-08T13:00:00Z',
      '2026-11-01T05:30:00Z',
      '2026-11-01T06:30:00Z',
      '2026-11-01T14:00:00Z',
    ]) {
      expect([t, who('America/New_York', allDay, t)]).toEqual([t, [N]]);
    }
  });
});

describe('weekly windows', () => {
  // 2026-07-03 is a Friday, 07-05 a Sunday, 07-06 a Monday; Berlin is UTC+2 in July.
  it('when a weekly window opens on Sunday 20:00 for 12 hours, then it runs past Sunday into Monday 08:00, once a week', () => {
    const sundayNight: Restriction[] = [{ type: 'weekly', start_day: 7, start_time: '20:00', duration_seconds: 12 * HOUR }];
    expectWindow('Europe/Berlin', sundayNight, '2026-07-05T18:00:00.000Z', '2026-07-06T06:00:00.000Z');
    expectWindow('Europe/Berlin', sundayNight, '2026-07-12T18:00:00.000Z', '2026-07-13T06:00:00.000Z');
    expect(who('Europe/Berlin', sundayNight, '2026-07-04T18:00:00.000Z')).toEqual([A]); // Saturday 20:00
    expect(who('Europe/Berlin', sundayNight, '2026-07-08T18:00:00.000Z')).toEqual([A]); // Wednesday 20:00
  });

  it('when a weekend window opens Friday 18:00 for 64 hours, then it holds all weekend until Monday 10:00', () => {
    const weekend: Restriction[] = [{ type: 'weekly', start_day: 5, start_time: '18:00', duration_seconds: 64 * HOUR }];
    expectWindow('Europe/Berlin', weekend, '2026-07-03T16:00:00.000Z', '2026-07-06T08:00:00.000Z');
    expect(who('Europe/Berlin', weekend, '2026-07-05T03:00:00.000Z')).toEqual([N]);
    expect(who('Europe/Berlin', weekend, '2026-07-02T16:00:00.000Z')).toEqual([A]); // Thursday 18:00
  });

  it('when weekday windows cover Monday to Friday 09:00 for 8 hours, then weekends and nights fall through', () => {
    const office = [1, 2, 3, 4, 5].map((d): Restriction => ({ type: 'weekly', start_day: d, start_time: '09:00', duration_seconds: 8 * HOUR }));
    expectWindow('UTC', office, '2026-07-03T09:00:00.000Z', '2026-07-03T17:00:00.000Z'); // Friday
    expect(who('UTC', office, '2026-07-04T12:00:00.000Z')).toEqual([A]); // Saturday noon
    expect(who('UTC', office, '2026-07-05T12:00:00.000Z')).toEqual([A]); // Sunday noon
    expectWindow('UTC', office, '2026-07-06T09:00:00.000Z', '2026-07-06T17:00:00.000Z'); // Monday
  });

  it('when a weekly window lasts the whole week, then the layer always applies', () => {
    const always: Restriction[] = [{ type: 'weekly', start_day: 3, start_time: '12:00', duration_seconds: 604_800 }];
    for (const t of ['2026-07-01T09:59:59.999Z', '2026-07-01T10:00:00Z', '2026-07-05T00:00:00Z', '2026-10-25T01:30:00Z']) {
      expect([t, who('Europe/Berlin', always, t)]).toEqual([t, [N]]);
    }
  });
});

describe('windows across clock changes (a window lasts its duration of local wall time)', () => {
  // New York: 8 March 2026 02:00 EST → 03:00 EDT; 1 November 2026 02:00 EDT → 01:00 EST.
  it('when New York springs forward, then 09:00 for 8 hours is still 09:00–17:00 local (EDT)', () => {
    const office: Restriction[] = [{ type: 'daily', start_time: '09:00', duration_seconds: 8 * HOUR }];
    expectWindow('America/New_York', office, '2026-03-07T14:00:00.000Z', '2026-03-07T22:00:00.000Z');
    expectWindow('America/New_York', office, '2026-03-08T13:00:00.000Z', '2026-03-08T21:00:00.000Z');
  });

  it('when the change falls inside a window, then it ends at its local end time: 00:00 for 8 hours is 7 real hours in spring, 9 in autumn', () => {
    const early: Restriction[] = [{ type: 'daily', start_time: '00:00', duration_seconds: 8 * HOUR }];
    expectWindow('America/New_York', early, '2026-03-08T05:00:00.000Z', '2026-03-08T12:00:00.000Z');
    expectWindow('America/New_York', early, '2026-11-01T04:00:00.000Z', '2026-11-01T13:00:00.000Z');
  });

  it('when a window opens at a time the clocks skip (02:30), then it opens as they jump (03:00 EDT) and closes at 03:30 local', () => {
    const skipped: Restriction[] = [{ type: 'daily', start_time: '02:30', duration_seconds: HOUR }];
    expectWindow('America/New_York', skipped, '2026-03-08T07:00:00.000Z', '2026-03-08T07:30:00.000Z');
    expectWindow('America/New_York', skipped, '2026-03-09T06:30:00.000Z', '2026-03-09T07:30:00.000Z');
  });

  it('when a window opens at a time the clocks repeat (01:30), then it opens at the first 01:30 and lasts until 02:30 EST, two real hours', () => {
    const repeated: Restriction[] = [{ type: 'daily', start_time: '01:30', duration_seconds: HOUR }];
    expectWindow('America/New_York', repeated, '2026-11-01T05:30:00.000Z', '2026-11-01T07:30:00.000Z');
    expect(who('America/New_York', repeated, '2026-11-01T06:15:00.000Z')).toEqual([N]); // 01:15 EST, the second pass
  });

  it('when a window closes at a time the clocks repeat (01:30), then it closes at the first 01:30, not the second', () => {
    const late: Restriction[] = [{ type: 'daily', start_time: '23:00', duration_seconds: 2.5 * HOUR }];
    expectWindow('America/New_York', late, '2026-11-01T03:00:00.000Z', '2026-11-01T05:30:00.000Z');
    expect(who('America/New_York', late, '2026-11-01T06:15:00.000Z')).toEqual([A]); // 01:15 EST: the clock reads inside, but the window has closed
  });

  it('when a clock set back crosses midnight (Goose Bay, 2010: 00:01 ADT back to 23:01 AST), then the new day’s window, opened before, stays open', () => {
    const layer = { ...upper([{ type: 'daily', start_time: '00:00', duration_seconds: 30 * 60 }]), start: '2010-01-01' };
    const at = (iso: string) => onCallAt({ timeZone: 'America/Goose_Bay', layers: [layer], overrides: [] }, new Date(iso));
    expect(['2010-11-07T02:59:59.999Z', '2010-11-07T03:00:00Z', '2010-11-07T04:29:59.999Z', '2010-11-07T04:30:00Z'].map(at)).toEqual([[], [N], [N], []]);
    expect(at('2010-11-07T03:30:00Z')).toEqual([N]); // 23:30 AST on the 6th, the second time
  });

  // Berlin: 29 March 2026 02:00 CET → 03:00 CEST; 25 October 2026 03:00 CEST → 02:00 CET.
  it('when Berlin springs forward, then a night window 22:00 for 8 hours ends at 06:00 CEST (7 real hours), and a whole Sunday is 23 hours', () => {
    expectWindow('Europe/Berlin', [{ type: 'daily', start_time: '22:00', duration_seconds: 8 * HOUR }], '2026-03-28T21:00:00.000Z', '2026-03-29T04:00:00.000Z');
    expectWindow(
      'Europe/Berlin',
      [{ type: 'weekly', start_day: 7, start_time: '00:00', duration_seconds: 24 * HOUR }],
      '2026-03-28T23:00:00.000Z',
      '2026-03-29T22:00:00.000Z',
    );
  });

  it('when Berlin falls back, then Saturday 12:00 for 24 hours ends on Sunday 12:00 CET (25 real hours)', () => {
    expectWindow(
      'Europe/Berlin',
      [{ type: 'weekly', start_day: 6, start_time: '12:00', duration_seconds: 24 * HOUR }],
      '2026-10-24T10:00:00.000Z',
      '2026-10-25T11:00:00.000Z',
    );
  });
});

describe('shiftsBetween with windows', () => {
  const spans = (timeZone: string, layers: Layer[], from: string, to: string) =>
    shiftsBetween({ timeZone, layers, overrides: [] }, new Date(from), new Date(to)).map((s) => [s.start.toISOString(), s.end.toISOString(), s.userIds]);
  const sundayNight: Restriction[] = [{ type: 'weekly', start_day: 7, start_time: '20:00', duration_seconds: 12 * HOUR }];

  it('when a weekly window crosses into Monday, then the spans change exactly at its edges and the layer below fills the rest', () => {
    expect(spans('Europe/Berlin', [base, upper(sundayNight)], '2026-07-03T00:00:00Z', '2026-07-08T00:00:00Z')).toEqual([
      ['2026-07-03T00:00:00.000Z', '2026-07-05T18:00:00.000Z', [A]],
      ['2026-07-05T18:00:00.000Z', '2026-07-06T06:00:00.000Z', [N]],
      ['2026-07-06T06:00:00.000Z', '2026-07-08T00:00:00.000Z', [A]],
    ]);
  });

  it('when only a restricted layer exists, then the time outside its windows is a span with nobody on call', () => {
    expect(spans('Europe/Berlin', [upper(sundayNight)], '2026-07-05T00:00:00Z', '2026-07-13T00:00:00Z')).toEqual([
      ['2026-07-05T00:00:00.000Z', '2026-07-05T18:00:00.000Z', []],
      ['2026-07-05T18:00:00.000Z', '2026-07-06T06:00:00.000Z', [N]],
      ['2026-07-06T06:00:00.000Z', '2026-07-12T18:00:00.000Z', []],
      ['2026-07-12T18:00:00.000Z', '2026-07-13T00:00:00.000Z', [N]],
    ]);
  });

  it('when a window spans Berlin’s fall-back, then its span is 25 hours long', () => {
    const saturday: Restriction[] = [{ type: 'weekly', start_day: 6, start_time: '12:00', duration_seconds: 24 * HOUR }];
    expect(spans('Europe/Berlin', [base, upper(saturday)], '2026-10-24T00:00:00Z', '2026-10-26T00:00:00Z')).toEqual([
      ['2026-10-24T00:00:00.000Z', '2026-10-24T10:00:00.000Z', [A]],
      ['2026-10-24T10:00:00.000Z', '2026-10-25T11:00:00.000Z', [N]],
      ['2026-10-25T11:00:00.000Z', '2026-10-26T00:00:00.000Z', [A]],
    ]);
  });

  it('when office hours cover New York’s spring-forward week, then each weekday’s span is 09:00–17:00 local', () => {
    const office = [1, 2, 3, 4, 5].map((d): Restriction => ({ type: 'weekly', start_day: d, start_time: '09:00', duration_seconds: 8 * HOUR }));
    const day = spans('America/New_York', [upper(office)], '2026-03-06T00:00:00Z', '2026-03-10T00:00:00Z');
    expect(day).toEqual([
      ['2026-03-06T00:00:00.000Z', '2026-03-06T14:00:00.000Z', []],
      ['2026-03-06T14:00:00.000Z', '2026-03-06T22:00:00.000Z', [N]], // Friday, EST
      ['2026-03-06T22:00:00.000Z', '2026-03-09T13:00:00.000Z', []],
      ['2026-03-09T13:00:00.000Z', '2026-03-09T21:00:00.000Z', [N]], // Monday, EDT
      ['2026-03-09T21:00:00.000Z', '2026-03-10T00:00:00.000Z', []],
    ]);
  });

  it('when a year is resolved with ten daily windows on each of three layers, then it is quick', () => {
    const windows = Array.from({ length: 10 }, (_, i): Restriction => ({
      type: 'daily',
      start_time: `${String(i * 2).padStart(2, '0')}:30`,
      duration_seconds: HOUR,
    }));
    const layers = [base, upper(windows), { ...upper(windows), name: 'top', rotation: { unit: 'hours' as const, length: 1 }, users: [A, N] }];
    const started = performance.now();
    const year = shiftsBetween({ timeZone: 'America/New_York', layers, overrides: [] }, new Date('2026-01-01T00:00:00Z'), new Date('2027-01-01T00:00:00Z'));
    expect(year.length).toBeGreaterThanOrEqual(365 * 20); // a window a span at least, every two hours
    expect(performance.now() - started).toBeLessThan(3000);
  });
});

describe('inWindows against the rule itself', () => {
  const DAY_MS = 86_400_000;
  const MONDAY = Date.UTC(1970, 0, 5); // wall ms of a Monday midnight
  /** The rule, checked over a fortnight of occurrences around `at` with no shortcut. */
  function naive(r: Restriction, zone: ReturnType<typeof zoneOf>, at: number): boolean {
    const period = r.type === 'weekly' ? 7 * DAY_MS : DAY_MS;
    const [h, m] = r.start_time.split(':').map(Number);
    const offset = (r.type === 'weekly' ? (r.start_day - 1) * DAY_MS : 0) + (h * 60 + m) * 60_000;
    const here = Math.floor((instantToWall(at, zone) - MONDAY) / period) * period + MONDAY;
    for (let p = here - 14 * DAY_MS; p <= here + 14 * DAY_MS; p += period) {
      const open = p + offset;
      if (wallToInstant(open, zone) <= at && at < wallToInstant(open + r.duration_seconds * 1000, zone)) return true;
    }
    return false;
  }
  const time = fc
    .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
    .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
  const restriction: fc.Arbitrary<Restriction> = fc.oneof(
    fc.record({ type: fc.constant('daily' as const), start_time: time, duration_seconds: fc.integer({ min: 1, max: 86_400 }) }),
    fc.record({
      type: fc.constant('weekly' as const),
      start_day: fc.integer({ min: 1, max: 7 }),
      start_time: time,
      duration_seconds: fc.integer({ min: 1, max: 604_800 }),
    }),
  );
  // Instants near 2026's clock changes (Santiago changes at midnight, Lord Howe by half an hour).
  const near = fc
    .tuple(
      fc.constantFrom('2026-03-08T07:00Z', '2026-04-05T03:00Z', '2026-09-06T04:00Z', '2026-10-25T01:00Z', '2026-11-01T06:00Z', '2026-04-04T15:00Z'),
      fc.integer({ min: -3 * DAY_MS, max: 3 * DAY_MS }),
    )
    .map(([iso, d]) => Date.parse(iso) + d);

  it('when any window is asked about any instant near a clock change, then it answers as the rule does', () => {
    fc.assert(
      fc.property(fc.constantFrom('America/New_York', 'Europe/Berlin', 'America/Santiago', 'Australia/Lord_Howe', 'UTC'), restriction, near, (name, r, at) => {
        const zone = zoneOf(name);
        expect(inWindows([compileWindow(r)], zone, at)).toBe(naive(r, zone, at));
      }),
      { numRuns: 3000 },
    );
  });
});
