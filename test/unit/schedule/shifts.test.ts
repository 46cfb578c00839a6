import fc from 'fast-check';
import { DateTime } from 'luxon';
import { onCallAt, shiftsBetween, type Layer, type ScheduleSpec } from '../../../src/domain/schedule';

const [A, B, N] = ['alice@example.com', 'bob@example.com', 'night@example.com'];
const ZONES = ['America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe', 'Asia/Kolkata', 'UTC'];
const iso = (d: Date) => d.toISOString();

describe('shiftsBetween', () => {
  it('when a daily rotation spans New York fall-back, then spans start at every 09:00 local, one of them 25 hours long', () => {
    const schedule: ScheduleSpec = {
      timeZone: 'America/New_York',
      layers: [{ name: 'p', users: [A, B], rotation: { unit: 'days', length: 1 }, handoff_time: '09:00', start: '2026-10-01' }],
      overrides: [],
    };
    const spans = shiftsBetween(schedule, new Date('2026-10-31T13:00:00Z'), new Date('2026-11-02T14:00:00Z'));
    expect(spans.map((s) => [iso(s.start), iso(s.end), s.userIds])).toEqual([
      ['2026-10-31T13:00:00.000Z', '2026-11-01T14:00:00.000Z', [A]], // Oct 31 is day 30
      ['2026-11-01T14:00:00.000Z', '2026-11-02T14:00:00.000Z', [B]],
    ]);
  });

  it('when an override and a restricted upper layer cut into shifts, then spans follow them and nobody-spans are listed', () => {
    const schedule: ScheduleSpec = {
      timeZone: 'Europe/Berlin',
      layers: [
        {
          name: 'nights',
          users: [N],
          rotation: { unit: 'weeks', length: 1 },
          handoff_time: '00:00',
          start: '2026-07-01',
          restrictions: [{ type: 'daily', start_time: '22:00', duration_seconds: 8 * 3600 }],
        },
      ],
      overrides: [{ userId: A, from: new Date('2026-07-01T21:00:00Z'), to: new Date('2026-07-01T23:00:00Z') }],
    };
    const spans = shiftsBetween(schedule, new Date('2026-07-01T12:00:00Z'), new Date('2026-07-02T12:00:00Z'));
    expect(spans.map((s) => [iso(s.start), s.userIds])).toEqual([
      ['2026-07-01T12:00:00.000Z', []],
      ['2026-07-01T20:00:00.000Z', [N]],
      ['2026-07-01T21:00:00.000Z', [A]],
      ['2026-07-01T23:00:00.000Z', [N]],
      ['2026-07-02T04:00:00.000Z', []],
    ]);
  });

  it.each([
    ['to before from', '2026-07-02T00:00:00Z', '2026-07-01T00:00:00Z', 'from must be before to'],
    ['more than 366 days', '2026-01-01T00:00:00Z', '2027-01-03T00:00:00Z', 'at most 366 days at a time'],
  ])('when asked for %s, then a clear error', (_name, from, to, message) => {
    const schedule: ScheduleSpec = {
      timeZone: 'UTC',
      layers: [{ name: 'p', users: [A], rotation: { unit: 'days', length: 1 }, handoff_time: '09:00', start: '2026-01-01' }],
      overrides: [],
    };
    expect(() => shiftsBetween(schedule, new Date(from), new Date(to))).toThrow(message);
  });
});

const hhmm = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
  .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
// Short and long windows, daily and weekly, some wrapping past midnight or past Sunday.
const restriction = fc.oneof(
  fc.record({ type: fc.constant('daily' as const), start_time: hhmm, duration_seconds: fc.integer({ min: 1, max: 86_400 }) }),
  fc.record({
    type: fc.constant('weekly' as const),
    start_day: fc.integer({ min: 1, max: 7 }),
    start_time: hhmm,
    duration_seconds: fc.oneof(fc.integer({ min: 1, max: 86_400 }), fc.integer({ min: 1, max: 604_800 })),
  }),
);
const layer = fc.record({
  name: fc.constant('l'),
  users: fc.array(fc.constantFrom(A, B, N), { minLength: 1, maxLength: 4 }),
  rotation: fc.record({ unit: fc.constantFrom('hours' as const, 'days' as const, 'weeks' as const), length: fc.integer({ min: 1, max: 30 }) }),
  handoff_time: hhmm,
  start: fc
    .date({ min: new Date('2025-06-01T00:00:00Z'), max: new Date('2026-12-31T00:00:00Z'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  restrictions: fc.option(fc.array(restriction, { minLength: 1, maxLength: 2 }), { nil: undefined }),
}) as fc.Arbitrary<Layer>;
// Windows around the 2026 changes of each zone, where mistakes would hide.
const windowStart = fc
  .constantFrom('2026-03-06', '2026-03-27', '2026-04-03', '2026-10-02', '2026-10-23', '2026-10-30', '2026-07-01')
  .map((d) => Date.parse(`${d}T00:00:00Z`));

describe('shiftsBetween and onCallAt agree', () => {
  it('when any schedule is resolved over a DST week, then spans tile the week and every instant inside answers the same as onCallAt', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.array(layer, { minLength: 1, maxLength: 3 }),
        windowStart,
        fc.array(fc.integer({ min: 0, max: 4 * 86_400_000 }), { minLength: 5, maxLength: 20 }),
        (timeZone, layers, from, probes) => {
          const schedule: ScheduleSpec = { timeZone, layers, overrides: [] };
          const to = from + 4 * 86_400_000;
          const spans = shiftsBetween(schedule, new Date(from), new Date(to));
          expect(spans[0].start.getTime()).toBe(from);
          expect(spans.at(-1)!.end.getTime()).toBe(to);
          spans.forEach((s, i) => {
            expect(s.start.getTime()).toBeLessThan(s.end.getTime());
            if (i > 0) expect(s.start.getTime()).toBe(spans[i - 1].end.getTime());
            expect(onCallAt(schedule, s.start)).toEqual(s.userIds);
            expect(onCallAt(schedule, new Date(s.end.getTime() - 1))).toEqual(s.userIds);
          });
          for (const p of probes) {
            const at = from + p;
            if (at >= to) continue;
            expect(onCallAt(schedule, new Date(at))).toEqual(spans.find((s) => s.start.getTime() <= at && at < s.end.getTime())!.userIds);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('when a daily or weekly layer hands off, then the local clock reads handoff_time, or the time was skipped that day and it is the first minute after the jump', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        layer.filter((l) => l.rotation.unit !== 'hours'),
        windowStart,
        (timeZone, l, from) => {
          const distinct = { ...l, users: [A, B], restrictions: undefined, rotation: { ...l.rotation, length: 1 } };
          const spans = shiftsBetween({ timeZone, layers: [distinct], overrides: [] }, new Date(from), new Date(from + 20 * 86_400_000));
          for (const s of spans.slice(1)) {
            const local = DateTime.fromJSDate(s.start, { zone: timeZone });
            if (local.toFormat('HH:mm') === distinct.handoff_time) continue;
            // Skipped: a minute earlier the clock read before the handoff time, now after it.
            const [h, m] = distinct.handoff_time.split(':').map(Number);
            expect(
              DateTime.fromObject({ year: local.year, month: local.month, day: local.day, hour: h, minute: m }, { zone: timeZone }).toFormat('HH:mm'),
            ).not.toBe(distinct.handoff_time);
            expect(local.minus({ milliseconds: 1 }).toFormat('HH:mm') < distinct.handoff_time).toBe(true);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
