import { anchorRotation, withinLayerLimit } from '../../../src/domain/importers/layers';
import { firstSharedMinute, weeklyCoverage } from '../../../src/domain/importers/overlap';
import type { Skipped } from '../../../src/domain/importers/plan';
import { clockOf, isoWeekday, rotateLeft, rotationOfSeconds, splitWall, wallOf } from '../../../src/domain/importers/time';

const NOW = new Date('2026-11-27T00:00:00Z');

describe('rotation lengths', () => {
  it.each([
    [604_800, { unit: 'weeks', length: 1 }],
    [1_209_600, { unit: 'weeks', length: 2 }],
    [86_400, { unit: 'days', length: 1 }],
    [259_200, { unit: 'days', length: 3 }],
    [43_200, { unit: 'hours', length: 12 }],
    [3_600, { unit: 'hours', length: 1 }],
  ])('when a turn lasts %i s, then it is %o', (seconds, rotation) => {
    expect(rotationOfSeconds(seconds)).toEqual(rotation);
  });

  it.each([5_400, 1_800, 0, -3_600, 3_601, 1001 * 3600 + 0.5])('when a turn lasts %s s (not whole hours), then there is no Klaxon rotation', (seconds) => {
    expect(rotationOfSeconds(seconds)).toBeNull();
  });

  it('when a turn is more than 1000 hours and not whole days, then there is none', () => {
    expect(rotationOfSeconds(1001 * 3600)).toBeNull();
  });
});

describe('local clock', () => {
  it('when an instant is read in a zone, then the wall time is the zone’s, across a clock change', () => {
    expect(splitWall(wallOf('2030-03-10T12:00:00Z', 'America/New_York')!)).toEqual({ date: '2030-03-10', time: '08:00', seconds: 0 });
    expect(splitWall(wallOf('2030-03-09T12:00:00Z', 'America/New_York')!)).toEqual({ date: '2030-03-09', time: '07:00', seconds: 0 });
    expect(splitWall(wallOf('2026-01-05T09:00:30-05:00', 'America/New_York')!).seconds).toBe(30);
    expect(wallOf('not a date', 'UTC')).toBeNull();
  });

  it('when clock texts are read, then seconds are kept apart and anything else is refused', () => {
    expect(clockOf('09:00:00')).toEqual({ time: '09:00', seconds: 0 });
    expect(clockOf('23:59:30')).toEqual({ time: '23:59', seconds: 30 });
    expect(clockOf('9:00')).toBeNull();
    expect(clockOf('24:00:00')).toBeNull();
    expect(isoWeekday('Monday')).toBe(1);
    expect(isoWeekday('sunday')).toBe(7);
    expect(isoWeekday('someday')).toBeUndefined();
    expect(rotateLeft(['a', 'b', 'c'], 4)).toEqual(['b', 'c', 'a']);
  });
});

describe('anchoring a rotation', () => {
  const rotation = { unit: 'days', length: 1 } as const;

  it('when the layer starts with its rotation, then the anchor is the rotation start on the schedule’s clock', () => {
    expect(anchorRotation({ rotationStart: '2026-01-05T08:00:00-05:00', zone: 'Europe/Berlin', rotation, users: ['a', 'b'], now: NOW })).toEqual({
      ok: true,
      start: '2026-01-05',
      handoff_time: '14:00',
      users: ['a', 'b'],
    });
  });

  it('when the layer starts three turns later, then the anchor moves to it and the order turns with it', () => {
    const anchored = anchorRotation({
      rotationStart: '2026-01-05T08:00:00Z',
      layerStart: '2026-01-08T08:00:00Z',
      zone: 'UTC',
      rotation,
      users: ['a', 'b'],
      now: NOW,
    });
    expect(anchored).toEqual({ ok: true, start: '2026-01-08', handoff_time: '08:00', users: ['b', 'a'] });
  });

  it('when a future layer starts mid-turn, then it starts at the next handoff and says so', () => {
    const anchored = anchorRotation({
      rotationStart: '2026-01-05T08:00:00Z',
      layerStart: '2027-01-08T20:00:00Z',
      zone: 'UTC',
      rotation,
      users: ['a', 'b'],
      now: NOW,
    });
    expect(anchored).toMatchObject({ ok: true, start: '2027-01-09', handoff_time: '08:00', note: expect.stringMatching(/starts mid-turn.*2027-01-09 08:00/) });
  });

  it('when the rotation hands off on a second that is not :00, then it cannot be anchored', () => {
    expect(anchorRotation({ rotationStart: '2026-01-05T08:00:15Z', zone: 'UTC', rotation, users: ['a'], now: NOW })).toEqual({
      ok: false,
      why: 'it hands off at 08:00:15: Klaxon hands off on the minute',
    });
  });
});

describe('limits and overlaps', () => {
  it('when a schedule has 22 layers, then the two lowest are left out and reported', () => {
    const skipped: Skipped[] = [];
    const layers = Array.from({ length: 22 }, (_, i) => ({ externalId: `L${i}`, name: `Layer ${i}` }));
    const kept = withinLayerLimit(layers, { externalId: 'S', name: 'Sched' }, skipped);
    expect(kept.map((l) => l.externalId)).toEqual(layers.slice(2).map((l) => l.externalId));
    expect(skipped.map((s) => s.external_id)).toEqual(['S/L0', 'S/L1']);
  });

  it('when windows share a minute of the week, then the first is named; when they only touch, then none', () => {
    const office = weeklyCoverage([{ type: 'weekly', start_day: 1, start_time: '09:00', duration_seconds: 9 * 3600 }]);
    const nights = weeklyCoverage([{ type: 'daily', start_time: '18:00', duration_seconds: 15 * 3600 }]);
    expect(firstSharedMinute(office, nights)).toBeNull();
    expect(firstSharedMinute(office, weeklyCoverage(undefined))).toBe('Monday 09:00');
    const sundayToMonday = weeklyCoverage([{ type: 'weekly', start_day: 7, start_time: '23:00', duration_seconds: 2 * 3600 }]);
    expect(firstSharedMinute(sundayToMonday, weeklyCoverage([{ type: 'daily', start_time: '00:30', duration_seconds: 60 }]))).toBe('Monday 00:30');
  });
});
