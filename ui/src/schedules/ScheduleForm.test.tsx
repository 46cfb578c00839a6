import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newLayer, scheduleBody, type ScheduleDraft } from './layerForm';
import { ScheduleForm } from './ScheduleForm';
import type { Member } from './types';

afterEach(cleanup);

const members: Member[] = [
  { id: 'u-ann', email: 'ann@example.test', name: 'Ann' },
  { id: 'u-bob', email: 'bob@example.test', name: null },
];
const initial: ScheduleDraft = {
  name: 'Primary',
  timeZone: 'Europe/Berlin',
  layers: [{ ...newLayer('2026-12-01'), users: ['u-ann', 'u-bob'] }, newLayer('2026-12-01')],
};

function show(error?: string, onSubmit = vi.fn()) {
  render(
    <MantineProvider>
      <ScheduleForm
        label="New schedule"
        initial={initial}
        members={members}
        today="2026-12-01"
        submitLabel="Create schedule"
        pending={false}
        error={error}
        onSubmit={onSubmit}
      />
    </MantineProvider>,
  );
  return onSubmit;
}

/** The error text Mantine shows under an input (linked by aria-describedby), or null. */
const errorOf = (input: HTMLElement) => {
  const ids = input.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent).find((t) => t) ?? null;
};
const layer = (n: number) => within(screen.getByRole('group', { name: `Layer ${n}` }));

describe('ScheduleForm', () => {
  it('when the server names a layer’s users in its own spelling (layers[0].users), then the message is under that layer’s rotation picker and not above the form', () => {
    const message = 'layers[0].users: carol@example.test is not a member of this workspace';
    show(message);
    expect(errorOf(layer(1).getByLabelText('Add to rotation'))).toBe(message);
    expect(errorOf(layer(2).getByLabelText('Add to rotation'))).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('when the request schema names the second layer’s rotation length (layers.1.rotation.length), then it is under that field', () => {
    const message = 'layers.1.rotation.length: Too small: expected number to be >=1';
    show(message);
    expect(errorOf(layer(2).getByLabelText('Rotation length'))).toBe(message);
    expect(errorOf(layer(1).getByLabelText('Rotation length'))).toBeNull();
  });

  it('when the server names the time zone, then it is under the time zone; a message naming no field is above the form', () => {
    show('time_zone: unknown time zone Europe/Atlantis');
    expect(errorOf(screen.getByRole('combobox', { name: /^Time zone/ }))).toBe('time_zone: unknown time zone Europe/Atlantis');
    cleanup();
    show('Only Billing Owners and Account Admins may change schedules');
    expect(within(screen.getByRole('alert')).getByText('Only Billing Owners and Account Admins may change schedules')).toBeTruthy();
  });

  it('when Bob is moved earlier and the form is sent, then the rotation order sent is Bob, Ann', () => {
    const onSubmit = show();
    fireEvent.click(layer(1).getByRole('button', { name: 'Move bob@example.test earlier' }));
    expect(
      within(screen.getByRole('list', { name: 'Rotation order of layer 1' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['bob@example.test↑↓✕', 'Ann↑↓✕']);
    fireEvent.click(screen.getByRole('button', { name: 'Create schedule' }));
    expect(scheduleBody(onSubmit.mock.calls[0][0]).layers[0].users).toEqual(['u-bob', 'u-ann']);
  });
});
