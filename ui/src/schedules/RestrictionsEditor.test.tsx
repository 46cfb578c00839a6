import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newLayer, scheduleBody, type ScheduleDraft } from './layerForm';
import { draftOfRestriction } from './restrictionForm';
import { ScheduleForm } from './ScheduleForm';

afterEach(cleanup);

const weekly = (startDay: number) => draftOfRestriction({ type: 'weekly', start_day: startDay, start_time: '09:00', duration_seconds: 3600 });

function show(initial: ScheduleDraft, error?: string) {
  const onSubmit = vi.fn();
  render(
    <MantineProvider>
      <ScheduleForm
        label="Schedule"
        initial={initial}
        members={[{ id: 'u-ann', email: 'ann@example.test', name: 'Ann' }]}
        today="2026-12-01"
        submitLabel="Save"
        pending={false}
        error={error}
        onSubmit={onSubmit}
      />
    </MantineProvider>,
  );
  return onSubmit;
}
const draft = (...restrictions: ScheduleDraft['layers'][number]['restrictions']): ScheduleDraft => ({
  name: 'Cover',
  timeZone: 'Europe/Berlin',
  layers: [{ ...newLayer('2026-12-01'), users: ['u-ann'], restrictions }],
});
const layer1 = () => within(screen.getByRole('group', { name: 'Layer 1' }));
const win = (n: number) => within(screen.getByRole('group', { name: `Window ${n} of layer 1` }));
const type = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });
/** Picks an option of a window's select the way a user does: open the list, click the option. */
function pick(n: number, label: string, option: string) {
  fireEvent.click(win(n).getByRole('combobox', { name: label }));
  fireEvent.click(screen.getByRole('option', { name: option }));
}
/** The error text Mantine shows under an input (linked by aria-describedby), or null. */
const errorOf = (input: HTMLElement) => {
  const ids = input.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent).find((t) => t) ?? null;
};

describe('RestrictionsEditor', () => {
  it('when a weekly window is added (Sunday 20:00 for 12 h 30 min) and sent, then the body holds it in the API’s shape and the window reads in words', () => {
    const onSubmit = show(draft());
    expect(layer1().getByText('All day, every day.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add a window to layer 1' }));
    pick(1, 'Repeats', 'Once a week');
    pick(1, 'On', 'Sunday');
    type(win(1).getByLabelText('From'), '20:00');
    type(win(1).getByRole('textbox', { name: 'For hours' }), '12');
    type(win(1).getByRole('textbox', { name: 'and minutes' }), '30');
    expect(win(1).getByText('Sun 20:00 for 12h 30m')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(scheduleBody(onSubmit.mock.calls[0][0]).layers[0].restrictions).toEqual([
      { type: 'weekly', start_day: 7, start_time: '20:00', duration_seconds: 12 * 3600 + 30 * 60 },
    ]);
  });

  it('when a window is switched to daily, then the weekday picker goes and no start_day is sent; removing the window sends none', () => {
    const onSubmit = show(draft(weekly(3), weekly(5)));
    expect(win(1).getByRole('combobox', { name: 'On' })).toBeTruthy();
    pick(1, 'Repeats', 'Every day');
    expect(win(1).queryByRole('combobox', { name: 'On' })).toBeNull();
    expect(win(1).getByText('Every day 09:00 for 1h')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove window 2 of layer 1' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(scheduleBody(onSubmit.mock.calls[0][0]).layers[0].restrictions).toEqual([{ type: 'daily', start_time: '09:00', duration_seconds: 3600 }]);
    fireEvent.click(screen.getByRole('button', { name: 'Remove window 1 of layer 1' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(scheduleBody(onSubmit.mock.calls[1][0]).layers[0]).not.toHaveProperty('restrictions');
  });

  it('when the server names the second window’s start_day, then the message is under that window’s weekday and nowhere else', () => {
    const message = 'layers[0].restrictions[1].start_day: must be an ISO weekday, 1 (Monday) to 7 (Sunday)';
    show(draft(weekly(1), weekly(2)), message);
    expect(errorOf(win(2).getByRole('combobox', { name: 'On' }))).toBe(message);
    expect(errorOf(win(1).getByRole('combobox', { name: 'On' }))).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('when the server names a window’s duration, then it is under its hours; a message about the window as a whole is shown in the window', () => {
    const duration = 'layers[0].restrictions[0].duration_seconds: must be at least 1';
    show(draft(weekly(1)), duration);
    expect(errorOf(win(1).getByRole('textbox', { name: 'For hours' }))).toBe(duration);
    cleanup();
    show(draft(weekly(1)), 'layers.0.restrictions.0: Unrecognized key: "from"');
    expect(within(win(1).getByRole('alert')).getByText('layers.0.restrictions.0: Unrecognized key: "from"')).toBeTruthy();
  });
});
