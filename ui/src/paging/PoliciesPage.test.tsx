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
function serve(role: string, onDelete = ok({ id: 'p1', deleted: true }), extra: Record<string, ReturnType<typeof ok>> = {}) {
  const api = fakeApi({
    ...extra,
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

  it('when an admin simulates a draft on the last 30 days, then the draft and the policy’s service are replayed and what would change is highlighted', async () => {
    const BOB = '22222222-2222-4222-8222-222222222222';
    const page = (user_id: string, name: string, at: string) => ({ user_id, name, channel: 'sms', at });
    const simulation = {
      from: '2026-10-29T10:00:00.000Z',
      to: '2026-11-28T10:00:00.000Z',
      policy: { id: null, name: 'Checkout' },
      truncated: false,
      incidents: [
        {
          incident_id: 'i1',
          number: 41,
          title: 'Same as before',
          opened_at: '2026-11-01T10:00:00.000Z',
          ended_at: '2026-11-01T10:03:00.000Z',
          would_page: [page(ADA, 'Ada', '2026-11-01T10:00:00.000Z')],
          actually_paged: [page(ADA, 'Ada', '2026-11-01T10:00:01.000Z')],
          differs: false,
        },
        {
          incident_id: 'i2',
          number: 42,
          title: 'Bob would be woken',
          opened_at: '2026-11-02T02:00:00.000Z',
          ended_at: null,
          would_page: [page(ADA, 'Ada', '2026-11-02T02:00:00.000Z'), page(BOB, 'Bob', '2026-11-02T02:05:00.000Z')],
          actually_paged: [page(ADA, 'Ada', '2026-11-02T02:00:01.000Z')],
          differs: true,
        },
      ],
      totals: [
        { user_id: ADA, name: 'Ada', would_pages: 2, night_pages: 1, actual_pages: 2 },
        { user_id: BOB, name: 'Bob', would_pages: 1, night_pages: 1, actual_pages: 0 },
      ],
    };
    const { calls } = serve('ACCOUNT_ADMIN', undefined, { 'POST /escalation-policies/simulate': ok(simulation) });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Checkout' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Simulate on the last 30 days' }));

    const region = await screen.findByRole('region', { name: 'Simulation' });
    const [sent] = calls('POST /escalation-policies/simulate') as Array<{ policy: unknown; service_id: string; from: string; to: string }>;
    expect(sent.service_id).toBe(CART);
    expect(sent.policy).toEqual({
      name: 'Checkout',
      repeat: 0,
      ack_timeout_seconds: null,
      steps: [{ delay_seconds: 300, targets: [{ type: 'user', id: ADA }] }],
    });
    expect(new Date(sent.to).getTime() - new Date(sent.from).getTime()).toBe(30 * 86_400_000);
    expect(within(region).getByText(/2 incidents replayed .*: 1 would page differently/)).toBeTruthy();
    const differing = within(region).getByRole('row', { name: '#42' });
    expect(differing.getAttribute('data-differs')).toBe('true');
    expect(within(differing).getByText('Ada by SMS, Bob by SMS after 5 min')).toBeTruthy();
    expect(within(region).getByRole('row', { name: '#41' }).getAttribute('data-differs')).toBeNull();
    expect(within(region).getByRole('row', { name: 'Bob' }).getAttribute('data-differs')).toBe('true');
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeTruthy();
  });

  it('when a saved policy leaves a step paging nobody, then a warning lists the gap after the save', async () => {
    const gaps = [
      {
        kind: 'step_resolves_to_nobody',
        policy_id: 'p1',
        from: '2026-11-30T18:00:00.000Z',
        to: '2026-12-01T06:00:00.000Z',
        detail: 'step 1 of "Checkout" pages nobody: schedule "Nights" has nobody on call',
      },
    ];
    serve('ACCOUNT_ADMIN', undefined, {
      'PUT /escalation-policies/p1': ok(policy),
      'GET /readiness?policy_id=p1': ok({ from: 'x', to: 'y', gaps }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Checkout' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Save changes' }));

    const warning = await screen.findByRole('alert', { name: 'Readiness warning' });
    expect(within(warning).getByText(/“Checkout” leaves 1 gap in the next 14 days/)).toBeTruthy();
    expect(within(warning).getByText('Step pages nobody')).toBeTruthy();
  });
});
