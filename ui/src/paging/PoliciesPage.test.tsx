import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok, refused } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import type { ListedPolicy } from './policy-form';
import { PoliciesPage } from './PoliciesPage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ADA = '11111111-1111-4111-8111-111111111111';
const CART = '66666666-6666-4666-8666-666666666666';
const policy: ListedPolicy = {
  id: 'p1',
  name: 'Checkout',
  repeat: 0,
  ack_timeout_seconds: null,
  service_ids: [CART],
  steps: [{ delay_seconds: 300, targets: [{ type: 'user', id: ADA }] }],
};
const DELETE = 'DELETE /escalation-policies/p1';

/** A fake /api for a signed-in role: one policy used by one service, and the answer to a DELETE. */
function serve(role: string, onDelete = ok({ id: 'p1', deleted: true })) {
  const api = fakeApi({
    'GET /auth/session': ok({ user: { id: ADA, email: 'ada@example.test', name: 'Ada' }, role, csrf_token: 'c' }),
    'GET /escalation-policies': ok([policy]),
    'GET /services': ok([{ id: CART, name: 'Cart' }]),
    'GET /members': ok([{ id: ADA, email: 'ada@example.test', name: 'Ada' }]),
    'GET /schedules': ok([]),
    'GET /teams': ok([]),
    [DELETE]: onDelete,
  });
  renderWithApp(<PoliciesPage />);
  return api;
}

describe('PoliciesPage', () => {
  it('when an admin lists policies, then each shows its steps, timeout and services in words', async () => {
    serve('ACCOUNT_ADMIN');
    const row = await screen.findByRole('row', { name: 'Checkout' });
    await within(row).findByText('Cart');
    expect(within(row).getByText('Ada')).toBeTruthy();
    expect(within(row).getByText('Never')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'New policy' })).toBeTruthy();
  });

  it('when a service still pages with a policy, then deleting it asks first and shows the server’s policy_in_use refusal', async () => {
    const { calls } = serve(
      'BILLING_OWNER',
      refused(409, 'policy_in_use', 'escalation policy Checkout is used by 1 service(s): Cart; give them another policy first'),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Checkout' }));
    const dialog = await screen.findByRole('dialog');
    expect(calls(DELETE)).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete policy' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('is used by 1 service(s): Cart; give them another policy first');
  });

  it('when a member opens the page, then policies are read-only: no New, Edit or Delete, and View describes the policy', async () => {
    serve('MEMBER');
    fireEvent.click(await screen.findByRole('button', { name: 'View Checkout' }));
    expect(await screen.findByText(/^Page Ada; wait 5 min/)).toBeTruthy();
    expect(screen.getByText(/you can read them here/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New policy' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^(Edit|Delete) Checkout$/ })).toBeNull();
    expect(screen.queryAllByRole('textbox')).toHaveLength(0);
  });
});
