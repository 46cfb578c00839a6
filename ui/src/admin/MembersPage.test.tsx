import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MembersPage } from './MembersPage';
import { fakeApi, ok, refused, sessionAs } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import { optionsOf } from '../test/select-options';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ada = {
  id: '00000000-0000-4000-8000-000000000001',
  email: 'ada@example.test',
  name: 'Ada',
  role: 'BILLING_OWNER',
  verified: true,
  two_factor_enabled: true,
  joined_at: '2026-11-01T09:00:00.000Z',
};
const lin = {
  id: '00000000-0000-4000-8000-000000000002',
  email: 'lin@example.test',
  name: null,
  role: 'MEMBER',
  verified: true,
  two_factor_enabled: false,
  joined_at: '2026-11-20T14:12:03.000Z',
};
const FREE_FULL = ok({
  plan: 'FREE',
  limits: { users: 5, sources: 3, alerts_per_month: 50, sms_per_user_per_month: 0, voice_per_user_per_month: 0, history_days: 7, api_access: false },
  usage: { users: 4, pending_invitations: 1, sources: 2, alerts_this_month: 17, alerts_limit: 50, resets_at: '2026-12-01T00:00:00.000Z' },
});
const grace = {
  id: '00000000-0000-4000-8000-0000000000c1',
  email: 'grace@example.test',
  role: 'MEMBER',
  invited_by: { id: ada.id, email: ada.email },
  created_at: '2026-11-24T10:00:00.000Z',
  expires_at: '2026-12-01T10:00:00.000Z',
};

const routes = (over: Record<string, Parameters<typeof fakeApi>[0][string]> = {}) => ({
  'GET /auth/session': ok(sessionAs('BILLING_OWNER')),
  'GET /members': ok([ada, lin]),
  'GET /invitations': ok([grace]),
  'GET /plan': FREE_FULL,
  ...over,
});

async function pickRole(select: HTMLElement, label: string) {
  fireEvent.click((await optionsOf(select)).getByRole('option', { name: label, hidden: true }));
}

describe('MembersPage', () => {
  it('when the only Billing Owner would be demoted, then the server’s refusal is shown on that row and the role stays', async () => {
    const api = fakeApi(
      routes({
        [`PUT /members/${ada.id}`]: refused(409, 'last_billing_owner', 'the workspace keeps at least one Billing Owner: make someone else Billing Owner first'),
      }),
    );
    renderWithApp(<MembersPage />);
    const select = await screen.findByRole('combobox', { name: 'Role of ada@example.test' });
    await pickRole(select, 'Member');
    expect(await screen.findByText(/keeps at least one Billing Owner/)).toBeTruthy();
    expect(api.calls(`PUT /members/${ada.id}`)).toEqual([{ role: 'MEMBER' }]);
    expect((screen.getByRole('combobox', { name: 'Role of ada@example.test' }) as HTMLInputElement).value).toBe('Billing Owner');
  });

  it('when a member’s role is changed, then the new role is sent and the server’s message says when it applies', async () => {
    const api = fakeApi(
      routes({
        [`PUT /members/${lin.id}`]: ok(
          { ...lin, role: 'TEAM_MANAGER' },
          'lin@example.test is now TEAM_MANAGER; 1 session(s) ended, the new role applies at their next login',
        ),
      }),
    );
    renderWithApp(<MembersPage />);
    await pickRole(await screen.findByRole('combobox', { name: 'Role of lin@example.test' }), 'Team Manager');
    expect(await screen.findByText(/the new role applies at their next login/)).toBeTruthy();
    expect(api.calls(`PUT /members/${lin.id}`)).toEqual([{ role: 'TEAM_MANAGER' }]);
  });

  it('when a Billing Owner changes their own role, then their session has ended and they are sent to log in again', async () => {
    const bea = { ...ada, id: '00000000-0000-4000-8000-000000000003', email: 'bea@example.test', name: 'Bea' };
    fakeApi(
      routes({
        'GET /members': ok([ada, bea, lin]),
        [`PUT /members/${ada.id}`]: ok({ ...ada, role: 'ACCOUNT_ADMIN' }, 'ada@example.test is now ACCOUNT_ADMIN; 1 session(s) ended'),
      }),
    );
    renderWithApp(
      <Routes>
        <Route path="/login" element={<p>the login page</p>} />
        <Route path="*" element={<MembersPage />} />
      </Routes>,
    );
    await pickRole(await screen.findByRole('combobox', { name: 'Role of ada@example.test' }), 'Account Admin');
    expect(await screen.findByText('the login page')).toBeTruthy();
  });

  it('when an Account Admin looks, then the Billing Owner’s row cannot be changed and Billing Owner is not offered', async () => {
    fakeApi(routes({ 'GET /auth/session': ok(sessionAs('ACCOUNT_ADMIN', { id: '00000000-0000-4000-8000-000000000009' })) }));
    renderWithApp(<MembersPage />);
    const linRole = await screen.findByRole('combobox', { name: 'Role of lin@example.test' });
    expect(screen.queryByRole('combobox', { name: 'Role of ada@example.test' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove ada@example.test' })).toBeNull();
    const options = await optionsOf(linRole);
    expect(options.getAllByRole('option', { hidden: true }).map((o) => o.textContent)).toEqual([
      'Account Admin',
      'Team Manager',
      'Member',
      'Stakeholder (reads, never paged)',
    ]);
  });

  it('when the plan has no seat left, then the invitation’s refusal says so plainly', async () => {
    const api = fakeApi(
      routes({ 'POST /invitations': refused(403, 'plan_limit_reached', 'the FREE plan allows 5 users and members plus pending invitations already fill it.') }),
    );
    renderWithApp(<MembersPage />);
    expect(await screen.findByText('5 of 5 (4 members + 1 pending invitation) — limit reached')).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: /^Email address/ }), { target: { value: ' bob@example.test ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('No seat left on this plan')).toBeTruthy();
    expect(within(alert).getByText(/allows 5 users/)).toBeTruthy();
    expect(api.calls('POST /invitations')).toEqual([{ email: 'bob@example.test', role: 'MEMBER' }]);
  });

  it('when a member is removed, then a confirmation names them first, and a refusal is shown in it', async () => {
    const api = fakeApi(
      routes({ [`DELETE /members/${lin.id}`]: refused(403, 'forbidden', 'only a Billing Owner may make, unmake or remove a Billing Owner') }),
    );
    renderWithApp(<MembersPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove lin@example.test' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove lin@example.test?' });
    expect(api.calls(`DELETE /members/${lin.id}`)).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await within(dialog).findByText(/only a Billing Owner may/)).toBeTruthy();
    expect(api.calls(`DELETE /members/${lin.id}`)).toHaveLength(1);
  });

  it('when an invitation is revoked, then it asks first and then sends the DELETE', async () => {
    const api = fakeApi(routes({ [`DELETE /invitations/${grace.id}`]: ok({ id: grace.id, email: grace.email, revoked: true }) }));
    renderWithApp(<MembersPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke the invitation to grace@example.test' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(api.calls(`DELETE /invitations/${grace.id}`)).toHaveLength(1));
  });
});
