import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { calendarDays } from './calendar';
import { ScheduleCalendar } from './ScheduleCalendar';
import type { ScheduleOverride, Shift } from './types';

afterEach(cleanup);

const people = {
  ann: { id: 'ann', email: 'ann@example.test', name: 'Ann' },
  bob: { id: 'bob', email: 'bob@example.test', name: null },
  cy: { id: 'cy', email: 'cy@example.test', name: 'Cy' },
};
const shift = (start: string, end: string, who: Array<keyof typeof people>): Shift => ({
  start,
  end,
  user_ids: who.map((w) => people[w].id),
  users: who.map((w) => people[w]),
});

// A daily rotation handing off at 09:00 Berlin time; summer time ends on Sunday 25 October 2026
// at 03:00 (→ 02:00), so Bob's shift from Saturday 09:00 lasts 25 hours. Cy covers Sunday
// 09:00–13:00 by an override; nobody is on call from Monday 09:00.
const shifts = [
  shift('2026-10-23T07:00:00.000Z', '2026-10-24T07:00:00.000Z', ['ann']),
  shift('2026-10-24T07:00:00.000Z', '2026-10-25T08:00:00.000Z', ['bob']),
  shift('2026-10-25T08:00:00.000Z', '2026-10-25T12:00:00.000Z', ['cy']),
  shift('2026-10-25T12:00:00.000Z', '2026-10-26T08:00:00.000Z', ['ann']),
  shift('2026-10-26T08:00:00.000Z', '2026-10-27T08:00:00.000Z', []),
];
const overrides: ScheduleOverride[] = [{ id: 'o1', schedule_id: 's1', user_id: 'cy', from: '2026-10-25T08:00:00.000Z', to: '2026-10-25T12:00:00.000Z' }];

function show(zone: string) {
  const days = calendarDays(new Date('2026-10-24T12:00:00Z'), zone, 3);
  render(
    <MantineProvider>
      <ScheduleCalendar shifts={shifts} days={days} zone={zone} overrides={overrides} />
    </MantineProvider>,
  );
  const day = (label: string) => within(screen.getByRole('listitem', { name: label }));
  const entries = (label: string) =>
    day(label)
      .getAllByRole('listitem')
      .map((li) => li.getAttribute('aria-label'));
  return { day, entries };
}

describe('ScheduleCalendar', () => {
  it('when shown in Berlin time, then each day lists its shifts at local times, the 25-hour day says so, and the override is marked', () => {
    const { day, entries } = show('Europe/Berlin');
    expect(
      screen
        .getAllByRole('listitem')
        .filter((li) => li.parentElement?.getAttribute('aria-label') === 'On call, day by day')
        .map((li) => li.getAttribute('aria-label')),
    ).toEqual(['Sat 24 Oct', 'Sun 25 Oct', 'Mon 26 Oct']);
    expect(entries('Sat 24 Oct')).toEqual(['Ann, 00:00 to 09:00', 'bob@example.test, 09:00 to 24:00']);
    // The change day: the hand-off is still at 09:00, and the hour 02:00–03:00 happens twice, so offsets are shown.
    expect(day('Sun 25 Oct').getByText('25-hour day: clocks go back')).toBeTruthy();
    expect(entries('Sun 25 Oct')).toEqual([
      'bob@example.test, 00:00 UTC+02:00 to 09:00 UTC+01:00',
      'Cy, 09:00 UTC+01:00 to 13:00 UTC+01:00, override',
      'Ann, 13:00 UTC+01:00 to 24:00',
    ]);
    expect(day('Sun 25 Oct').getByText('override')).toBeTruthy();
    expect(entries('Mon 26 Oct')).toEqual(['Ann, 00:00 to 09:00', 'Nobody on call, 09:00 to 24:00']);
    expect(day('Sat 24 Oct').queryByText(/hour day/)).toBeNull();
  });

  it('when the same shifts are shown in UTC, then the hand-offs move with the clock: 07:00 on Saturday, 08:00 on Sunday', () => {
    const { entries } = show('UTC');
    expect(entries('Sat 24 Oct')).toEqual(['Ann, 00:00 to 07:00', 'bob@example.test, 07:00 to 24:00']);
    expect(entries('Sun 25 Oct')).toEqual(['bob@example.test, 00:00 to 08:00', 'Cy, 08:00 to 12:00, override', 'Ann, 12:00 to 24:00']);
  });

  it('when a day has no shift data, then it says so instead of showing an empty row', () => {
    const days = calendarDays(new Date('2026-12-01T12:00:00Z'), 'UTC', 1);
    render(
      <MantineProvider>
        <ScheduleCalendar shifts={shifts} days={days} zone="UTC" />
      </MantineProvider>,
    );
    expect(within(screen.getByRole('listitem', { name: 'Tue 1 Dec' })).getByText('No shifts')).toBeTruthy();
  });
});
