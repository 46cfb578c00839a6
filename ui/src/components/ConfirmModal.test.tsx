import { Button } from '@mantine/core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '../api/client';
import { fakeApi, ok, refused } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import { ConfirmModal } from './ConfirmModal';
import { useConfirmedAction } from './useConfirmedAction';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** Two rows, each with a Delete button that asks first. */
function Rows() {
  const remove = useConfirmedAction((name: string) => api('DELETE', `/things/${name}`));
  return (
    <>
      {['alpha', 'beta'].map((name) => (
        <Button key={name} onClick={() => remove.ask(name)} aria-label={`Delete ${name}`}>
          Delete
        </Button>
      ))}
      <ConfirmModal {...remove.modal} title={`Delete ${remove.target ?? ''}?`} confirmLabel="Delete" cancelLabel="Keep it">
        It goes for good.
      </ConfirmModal>
    </>
  );
}

describe('ConfirmModal with useConfirmedAction', () => {
  it('when the server refuses, then its message shows inside the dialog, which stays open; asking about another row starts without it', async () => {
    const { calls } = fakeApi({
      'DELETE /things/alpha': refused(409, 'thing_in_use', 'alpha is used by 2 policies'),
      'DELETE /things/beta': ok({ deleted: true }),
    });
    renderWithApp(<Rows />);

    fireEvent.click(screen.getByRole('button', { name: 'Delete alpha' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete alpha?' });
    expect(calls('DELETE /things/alpha')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('alpha is used by 2 policies');
    expect(screen.getByRole('dialog', { name: 'Delete alpha?' })).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Delete beta' }));
    const second = await screen.findByRole('dialog', { name: 'Delete beta?' });
    expect(within(second).queryByRole('alert')).toBeNull();
    fireEvent.click(within(second).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls('DELETE /things/beta')).toHaveLength(1);
  });
});
