import { describe, expect, it } from 'vitest';
import { calendarDays, clockTime, dayChange, entriesOfDay, formatInstant, isoToLocalInput, localInputToIso } from './calendar';
import type { Shift } from './types';

const shift = (start: string, end: string, who = 'ann'): Shift => ({
  start,
  end,
  user_ids: [who],
  users: [{ id: who, email: `${who}@example.test`, name: null }],
});

describe('calendarDays', () => {
  it('when the two weeks hold the end of summer time in Berlin, then 25 October lasts 25 hours and every day starts at local midnight', () => {
    const days = calendarDays(new Date('2026-10-20T12:00:00Z'), 'Europe/Berlin');
    expect(days).toHaveLength(14);
    expect(days[0]).toMatchObject({ key: '2026-10-20', label: 'Tue 20 Oct', start: new Date('2026-10-19T22:00:00Z'), hours: 24 });
    const change = days.find((d) => d.key === '2026-10-25')!;
    expect(change).toMatchObject({ start: new Date('2026-10-24T22:00:00Z'), end: new Date('2026-10-25T23:00:00Z'), hours: 25 });
    expect(dayChange(change)).toBe('25-hour day: clocks go back');
    expect(days.filter((d) => d.hours !== 24)).toHaveLength(1);
  });

  it('when spring comes in New York, then 8 March 2026 lasts 23 hours', () => {
    const days = calendarDays(new Date('2026-03-07T17:00:00Z'), 'America/New_York', 3);
    expect(days.map((d) => [d.key, d.hours])).toEqual([
      ['2026-03-07', 24],
      ['2026-03-08', 23],
      ['2026-03-09', 24],
    ]);
    expect(dayChange(days[1])).toBe('23-hour day: clocks go forward');
  });

  it('when the instant is late evening in UTC but already tomorrow in Tokyo, then Tokyo’s calendar starts tomorrow', () => {
    expect(calendarDays(new Date('2026-12-01T20:00:00Z'), 'Asia/Tokyo', 1)[0].key).toBe('2026-12-02');
    expect(calendarDays(new Date('2026-12-01T20:00:00Z'), 'UTC', 1)[0].key).toBe('2026-12-01');
  });
});

describe('entriesOfDay', () => {
  it('when a 25-hour shift crosses the change, then each day shows its own part on the local clock, with offsets on the change day', () => {
    // 09:00 Berlin summer time on 24 Oct to 09:00 winter time on 25 Oct.
    const long = shift('2026-10-24T07:00:00Z', '2026-10-25T08:00:00Z');
    const next = shift('2026-10-25T08:00:00Z', '2026-10-26T08:00:00Z', 'bob');
    const [d24, d25] = calendarDays(new Date('2026-10-24T12:00:00Z'), 'Europe/Berlin', 2);
    expect(entriesOfDay([long, next], d24, 'Europe/Berlin').map((e) => [e.from, e.to, e.continuedFrom, e.continues, e.hours])).toEqual([
      ['09:00', '24:00', false, true, 15],
    ]);
    expect(entriesOfDay([long, next], d25, 'Europe/Berlin').map((e) => [e.shift.user_ids[0], e.from, e.to, e.hours])).toEqual([
      ['ann', '00:00 UTC+02:00', '09:00 UTC+01:00', 10],
      ['bob', '09:00 UTC+01:00', '24:00', 15],
    ]);
  });

  it('when a shift ends exactly at midnight, then it is not shown on the next day', () => {
    const [d1, d2] = calendarDays(new Date('2026-12-01T10:00:00Z'), 'UTC', 2);
    const s = shift('2026-12-01T09:00:00Z', '2026-12-02T00:00:00Z');
    expect(entriesOfDay([s], d1, 'UTC')).toHaveLength(1);
    expect(entriesOfDay([s], d2, 'UTC')).toEqual([]);
  });
});

describe('local date-times', () => {
  it('when a datetime-local value is read in a zone, then it is that zone’s wall clock, and back again', () => {
    expect(localInputToIso('2026-12-02T12:00', 'Europe/Berlin')).toBe('2026-12-02T11:00:00.000Z');
    expect(localInputToIso('2026-07-02T12:00', 'Europe/Berlin')).toBe('2026-07-02T10:00:00.000Z');
    expect(isoToLocalInput('2026-12-02T11:00:00.000Z', 'Europe/Berlin')).toBe('2026-12-02T12:00');
  });

  it('when the value is empty, malformed, or a time skipped by the clocks going forward, then there is no instant', () => {
    expect(localInputToIso('', 'UTC')).toBeNull();
    expect(localInputToIso('2026-12-02', 'UTC')).toBeNull();
    expect(localInputToIso('2026-03-29T02:30', 'Europe/Berlin')).toBeNull();
  });

  it('when an instant is shown, then it reads on the chosen clock', () => {
    expect(formatInstant('2026-10-25T08:00:00Z', 'Europe/Berlin')).toBe('Sun 25 Oct, 09:00');
    expect(formatInstant('2026-10-25T08:00:00Z', 'UTC')).toBe('Sun 25 Oct, 08:00');
    expect(clockTime(new Date('2026-11-01T06:30:00Z'), 'America/New_York', true)).toBe('01:30 UTC-05:00');
  });
});
