import { DateTime } from 'luxon';
import { instantToWall, wallToInstant, zoneOf } from '../../../src/domain/schedule/local-time';

/** Wall ms for a local date-time written "YYYY-MM-DDTHH:mm". */
const wall = (local: string) => Date.parse(`${local}:00Z`);
const toInstant = (zone: string, local: string) => new Date(wallToInstant(wall(local), zoneOf(zone))).toISOString();

describe('wallToInstant', () => {
  it.each([
    ['America/New_York', '2026-07-01T09:00', '2026-07-01T13:00:00.000Z'],
    ['Europe/Berlin', '2026-01-15T09:00', '2026-01-15T08:00:00.000Z'],
    ['Asia/Kolkata', '2026-03-08T02:30', '2026-03-07T21:00:00.000Z'],
    ['Australia/Lord_Howe', '2026-07-01T09:00', '2026-06-30T22:30:00.000Z'],
  ])('when the local time exists once in %s (%s), then it is that instant', (zone, local, expected) => {
    expect(toInstant(zone, local)).toBe(expected);
  });

  it.each([
    ['America/New_York', '2026-03-08T02:30', '2026-03-08T07:00:00.000Z', '03:00'],
    ['Europe/Berlin', '2026-03-29T02:00', '2026-03-29T01:00:00.000Z', '03:00'],
    ['Europe/Berlin', '2026-03-29T02:59', '2026-03-29T01:00:00.000Z', '03:00'],
    ['Australia/Lord_Howe', '2026-10-04T02:15', '2026-10-03T15:30:00.000Z', '02:30'],
  ])('when the clocks skip the local time (%s %s), then it is the moment they jump past it', (zone, local, expected, clock) => {
    expect(toInstant(zone, local)).toBe(expected);
    expect(DateTime.fromISO(expected, { zone }).toFormat('HH:mm')).toBe(clock);
  });

  it.each([
    ['America/New_York', '2026-11-01T01:30', '2026-11-01T05:30:00.000Z', -240],
    ['Europe/Berlin', '2026-10-25T02:30', '2026-10-25T00:30:00.000Z', 120],
    ['Australia/Lord_Howe', '2026-04-05T01:45', '2026-04-04T14:45:00.000Z', 660],
  ])('when the local time happens twice (%s %s), then it is the first occurrence', (zone, local, expected, offset) => {
    expect(toInstant(zone, local)).toBe(expected);
    expect(DateTime.fromISO(expected, { zone }).offset).toBe(offset);
  });

  it('when converted back, then instantToWall gives the same local time for every existing time', () => {
    const z = zoneOf('America/New_York');
    for (let w = wall('2026-11-01T00:00'); w < wall('2026-11-01T04:00'); w += 15 * 60_000) {
      expect(instantToWall(wallToInstant(w, z), z)).toBe(w);
    }
  });

  it('when consecutive local times are converted across both DST changes, then instants never go backwards', () => {
    const z = zoneOf('Australia/Lord_Howe');
    for (const day of ['2026-04-05', '2026-10-04']) {
      let previous = -Infinity;
      for (let w = wall(`${day}T00:00`); w < wall(`${day}T04:00`); w += 60_000) {
        const t = wallToInstant(w, z);
        expect(t).toBeGreaterThanOrEqual(previous);
        previous = t;
      }
    }
  });
});

describe('zoneOf', () => {
  it.each(['Mars/Olympus_Mons', 'New York', '', 'America/NewYork'])('when the zone is %j, then a clear error names it', (zone) => {
    expect(() => zoneOf(zone)).toThrow(`unknown time zone ${JSON.stringify(zone)}: use an IANA name`);
  });
});
