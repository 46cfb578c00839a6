import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Policy, PolicyBody } from './policy-form';
import { PolicyEditor, type PolicyEditorProps } from './PolicyEditor';
import type { Directory } from './targets';

afterEach(cleanup);

const ADA = '11111111-1111-4111-8111-111111111111';
const BOB = '22222222-2222-4222-8222-222222222222';
const PRIMARY = '33333333-3333-4333-8333-333333333333';
const OPS = '44444444-4444-4444-8444-444444444444';
const directory: Directory = {
  users: [
    { id: ADA, email: 'ada@example.test', name: 'Ada' },
    { id: BOB, email: 'bob@example.test', name: null },
  ],
  schedules: [{ id: PRIMARY, name: 'Primary' }],
  teams: [{ id: OPS, name: 'Ops' }],
};
const existing: Policy = {
  id: '55555555-5555-4555-8555-555555555555',
  name: 'Checkout',
  repeat: 1,
  ack_timeout_seconds: 900,
  steps: [
    { delay_seconds: 300, targets: [{ type: 'schedule', id: PRIMARY }] },
    {
      delay_seconds: 90,
      targets: [
        { type: 'team', id: OPS },
        { type: 'user', id: BOB },
      ],
    },
  ],
};

function renderEditor(props: Partial<PolicyEditorProps> = {}) {
  const onSave = vi.fn<(body: PolicyBody) => void>();
  const view = render(
    <MantineProvider>
      <PolicyEditor directory={directory} onSave={onSave} {...props} />
    </MantineProvider>,
  );
  return { onSave, view };
}

const step = (n: number) => screen.getByRole('group', { name: `Step ${n}` });
const type = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });

/** Picks a target in a step's picker the way a user does: open the list, click the option. */
function pick(n: number, option: string) {
  fireEvent.click(within(step(n)).getByRole('combobox', { name: /^Targets/ }));
  fireEvent.click(screen.getByRole('option', { name: option }));
}

describe('PolicyEditor', () => {
  it('when a policy is filled in with two steps and several targets, then the body has them in order, with minutes as seconds', () => {
    const { onSave } = renderEditor();
    type(screen.getByRole('textbox', { name: /^Name/ }), ' Checkout ');
    pick(1, 'Ada (ada@example.test)');
    pick(1, 'Primary');
    type(within(step(1)).getByRole('textbox', { name: /^Delay \(minutes\)/ }), '2.5');
    fireEvent.click(screen.getByRole('button', { name: 'Add step' }));
    pick(2, 'Ops');
    type(within(step(2)).getByRole('textbox', { name: /^Delay \(minutes\)/ }), '10');
    type(screen.getByRole('textbox', { name: /^Acknowledgement timeout/ }), '30');
    fireEvent.click(screen.getByRole('button', { name: 'Create policy' }));

    expect(onSave).toHaveBeenCalledWith({
      name: 'Checkout',
      repeat: 0,
      ack_timeout_seconds: 1800,
      steps: [
        {
          delay_seconds: 150,
          targets: [
            { type: 'user', id: ADA },
            { type: 'schedule', id: PRIMARY },
          ],
        },
        { delay_seconds: 600, targets: [{ type: 'team', id: OPS }] },
      ],
    });
  });

  it('when a policy is edited, then its seconds show as minutes, and moving a step and clearing the timeout change the body accordingly', () => {
    const { onSave } = renderEditor({ initial: existing });
    expect((within(step(1)).getByRole('textbox', { name: /^Delay/ }) as HTMLInputElement).value).toBe('5');
    expect((within(step(2)).getByRole('textbox', { name: /^Delay/ }) as HTMLInputElement).value).toBe('1.5');
    expect((screen.getByRole('textbox', { name: /^Acknowledgement timeout/ }) as HTMLInputElement).value).toBe('15');

    fireEvent.click(screen.getByRole('button', { name: 'Move step 2 up' }));
    type(screen.getByRole('textbox', { name: /^Acknowledgement timeout/ }), '');
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(onSave).toHaveBeenCalledWith({
      name: 'Checkout',
      repeat: 1,
      ack_timeout_seconds: null,
      steps: [
        {
          delay_seconds: 90,
          targets: [
            { type: 'team', id: OPS },
            { type: 'user', id: BOB },
          ],
        },
        { delay_seconds: 300, targets: [{ type: 'schedule', id: PRIMARY }] },
      ],
    });
  });

  it('when a step is removed, then the body no longer has it', () => {
    const { onSave } = renderEditor({ initial: existing });
    fireEvent.click(screen.getByRole('button', { name: 'Remove step 1' }));
    expect(screen.queryByRole('group', { name: 'Step 2' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(onSave.mock.calls[0][0].steps).toEqual([existing.steps[1]]);
  });

  it('when a delay is not a number, then nothing is sent and the step says why', () => {
    const { onSave } = renderEditor({ initial: existing });
    type(within(step(2)).getByRole('textbox', { name: /^Delay/ }), 'soon');
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(onSave).not.toHaveBeenCalled();
    expect(within(step(2)).getByText(/must be a number of minutes/)).toBeTruthy();
    expect(within(step(1)).queryByText(/must be a number of minutes/)).toBeNull();
  });

  it('when the server names a step’s delay or target, then the message is shown in that step and not in the others', () => {
    renderEditor({
      initial: existing,
      serverError: 'steps.1.delay_seconds: must be at most 86400 seconds; steps[0].targets[0]: schedule 3333 is not a schedule of this workspace',
    });
    expect(within(step(2)).getByText('steps.1.delay_seconds: must be at most 86400 seconds')).toBeTruthy();
    expect(within(step(1)).getByText(/^steps\[0\]\.targets\[0\]: schedule 3333 is not a schedule/)).toBeTruthy();
    expect(within(step(1)).queryByText(/delay_seconds/)).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('when the server refuses without naming a field (a 403), then the message is shown above the form', () => {
    renderEditor({ initial: existing, serverError: 'your role (MEMBER) may not do this: escalation.manage' });
    expect(screen.getByRole('alert').textContent).toContain('your role (MEMBER) may not do this');
  });

  it('when read-only, then the policy is described in words with no control to change it', () => {
    renderEditor({ initial: existing, readOnly: true });
    expect(screen.getByText('Page schedule Primary; wait 5 min before the next step')).toBeTruthy();
    expect(screen.getByText('Page team Ops, bob@example.test; wait 1 min 30 s')).toBeTruthy();
    expect(screen.getByText('Then runs the list 1 more time(s).')).toBeTruthy();
    expect(screen.getByText(/returns to triggered after 15 min/)).toBeTruthy();
    expect(screen.queryAllByRole('textbox')).toHaveLength(0);
    expect(screen.queryAllByRole('combobox')).toHaveLength(0);
    expect(screen.queryAllByRole('button')).toHaveLength(0);
  });
});
