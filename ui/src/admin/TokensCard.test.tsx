import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TokensCard } from './TokensCard';
import { fakeApi, ok, refused, sessionAs } from '../test/fake-api';
import { renderWithApp } from '../test/render';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const PRO_PLAN = ok({
  plan: 'PRO',
  limits: {
    users: null,
    sources: null,
    alerts_per_month: null,
    sms_per_user_per_month: 100,
    voice_per_user_per_month: 50,
    history_days: 365,
    api_access: true,
  },
  usage: { users: 1, pending_invitations: 0, sources: 0, alerts_this_month: 0, alerts_limit: null, resets_at: '2026-12-01T00:00:00.000Z' },
});
const PLAINTEXT = 'klx_Ab3xSECRETsecretSECRETsecretSECRETsecret12';
const grafana = {
  id: '5b0c0000-0000-4000-8000-000000000001',
  name: 'grafana',
  prefix: 'klx_Ab3x',
  access: 'READ_ONLY',
  user: { id: 'u1', email: 'ada@example.test' },
  status: 'active',
  created_at: '2026-11-30T10:01:00.000Z',
  expires_at: '2026-12-07T10:01:00.000Z',
  revoked_at: null,
};

function createGrafana() {
  fireEvent.change(screen.getByRole('textbox', { name: 'Token name' }), { target: { value: 'grafana' } });
  fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
}

describe('TokensCard', () => {
  it('when the server wants a step-up, then it asks for the password, confirms it, sends the same token again and shows the plaintext once', async () => {
    const api = fakeApi({
      'GET /tokens': [ok([]), ok([grafana])],
      'GET /plan': PRO_PLAN,
      'GET /auth/2fa': ok({ enabled: false, enabled_at: null, recovery_codes_left: 0 }),
      'POST /tokens': [
        refused(403, 'step_up_required', 'confirm it is you first: send a factor or POST /api/auth/step-up'),
        ok(
          { id: grafana.id, token: PLAINTEXT, name: 'grafana', access: 'READ_ONLY', expires_at: grafana.expires_at },
          'copy the token now: it is not shown again',
          201,
        ),
      ],
      'POST /auth/step-up': (body) =>
        (body as { password?: string }).password === 'correct horse battery'
          ? ok({ stepped_up_at: '', fresh_until: '' })
          : refused(403, 'step_up_failed', 'the password or code is not right'),
    });
    renderWithApp(<TokensCard session={sessionAs('BILLING_OWNER')} />);
    await screen.findByText(/No API tokens yet/);
    createGrafana();

    const dialog = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    // Without two-factor, only the password is offered.
    expect(within(dialog).queryByText('App code')).toBeNull();
    fireEvent.change(within(dialog).getByLabelText(/^Password/), { target: { value: 'wrong' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText('the password or code is not right')).toBeTruthy();
    expect(api.calls('POST /tokens')).toHaveLength(1);

    fireEvent.change(within(dialog).getByLabelText(/^Password/), { target: { value: 'correct horse battery' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    const shown = await screen.findByRole('dialog', { name: 'Your new API token' });
    expect(within(shown).getByText(PLAINTEXT)).toBeTruthy();
    expect(within(shown).getByText(/will not be shown again/)).toBeTruthy();
    expect(within(shown).getByRole('button', { name: 'Copy the token' })).toBeTruthy();
    // The retry is the same request: the factor went to /auth/step-up, not into the token's body.
    expect(api.calls('POST /tokens')).toEqual([
      { access: 'READ_ONLY', days: 7, name: 'grafana' },
      { access: 'READ_ONLY', days: 7, name: 'grafana' },
    ]);
    expect(api.calls('POST /auth/step-up')).toEqual([{ password: 'wrong' }, { password: 'correct horse battery' }]);

    fireEvent.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByText(PLAINTEXT)).toBeNull());
    expect(document.body.textContent).not.toContain(PLAINTEXT);
    // The list now has the token, by name and prefix only.
    expect(await screen.findByRole('button', { name: 'Revoke token grafana' })).toBeTruthy();
  });

  it('when the person cancels the confirmation, then nothing is sent again and no error is shown', async () => {
    const api = fakeApi({
      'GET /tokens': ok([]),
      'GET /plan': PRO_PLAN,
      'GET /auth/2fa': ok({ enabled: true, enabled_at: '2026-11-30T09:00:00.000Z', recovery_codes_left: 10 }),
      'POST /tokens': refused(403, 'step_up_required', 'confirm it is you first'),
    });
    renderWithApp(<TokensCard session={sessionAs('ACCOUNT_ADMIN')} />);
    await screen.findByText(/No API tokens yet/);
    createGrafana();
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    // With two-factor on, a code from the app may be given instead.
    expect(await within(dialog).findByText('App code')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls('POST /tokens')).toHaveLength(1);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('when the account is not verified, then it says so and "Resend verification" sends a new link', async () => {
    const api = fakeApi({
      'GET /tokens': ok([]),
      'GET /plan': PRO_PLAN,
      'POST /tokens': refused(403, 'email_unverified', 'verify your email address before you create API tokens'),
      'POST /auth/resend-verification': ok(null, 'a new verification link was emailed to ada@example.test'),
    });
    renderWithApp(<TokensCard session={sessionAs('BILLING_OWNER')} />);
    await screen.findByText(/No API tokens yet/);
    createGrafana();
    fireEvent.click(await screen.findByRole('button', { name: 'Resend verification' }));
    expect(await screen.findByText('a new verification link was emailed to ada@example.test')).toBeTruthy();
    expect(api.calls('POST /auth/resend-verification')).toHaveLength(1);
  });

  it('when a token is revoked, then a confirmation comes first and only then the DELETE', async () => {
    const api = fakeApi({
      'GET /tokens': ok([grafana]),
      'GET /plan': PRO_PLAN,
      [`DELETE /tokens/${grafana.id}`]: ok({ id: grafana.id, revoked: true }, 'token revoked'),
    });
    renderWithApp(<TokensCard session={sessionAs('BILLING_OWNER')} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke token grafana' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke token grafana?' });
    expect(api.calls(`DELETE /tokens/${grafana.id}`)).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(api.calls(`DELETE /tokens/${grafana.id}`)).toHaveLength(1));
  });

  it('when the plan has no API access, then it says so before anyone tries', async () => {
    fakeApi({ 'GET /tokens': ok([]), 'GET /plan': ok({ ...(PRO_PLAN.body as { data: object }).data, plan: 'FREE', limits: { api_access: false } }) });
    renderWithApp(<TokensCard session={sessionAs('BILLING_OWNER')} />);
    expect(await screen.findByText(/The FREE plan does not include the customer API/)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Create token' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('when a Member opens it, then it explains who manages tokens and asks the server for nothing', () => {
    const api = fakeApi({});
    renderWithApp(<TokensCard session={sessionAs('MEMBER')} />);
    expect(screen.getByText(/Only Billing Owners and Account Admins manage customer API tokens/)).toBeTruthy();
    expect(api.fetch).not.toHaveBeenCalled();
  });
});
