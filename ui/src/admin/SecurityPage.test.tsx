import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setCsrfToken } from '../api/client';
import { SecurityPage } from './SecurityPage';
import { fakeApi, ok, refused, sessionAs } from '../test/fake-api';
import { renderWithApp } from '../test/render';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setCsrfToken(undefined);
});

const OFF = ok({ enabled: false, enabled_at: null, recovery_codes_left: 0 });
const ON = ok({ enabled: true, enabled_at: '2026-11-30T09:58:12.000Z', recovery_codes_left: 10 });
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const CODES = Array.from({ length: 10 }, (_, i) => `k3m${i}-7zpa-x2vd`);
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>';

describe('two-factor on the Security page', () => {
  it('when someone enrols, then they confirm it is them, the QR code is an image, the key is text, a wrong code is refused at the field, and the right one shows the ten codes once under the rotated session', async () => {
    setCsrfToken('csrf-old');
    const api = fakeApi({
      'GET /auth/2fa': [OFF, OFF, ON],
      'POST /auth/2fa/setup': [
        refused(403, 'step_up_required', 'confirm it is you'),
        ok({ otpauth_uri: `otpauth://totp/Klaxon:ada?secret=${SECRET}`, secret: SECRET, qr_svg: SVG }),
      ],
      'POST /auth/step-up': ok({ stepped_up_at: '2026-11-30T09:58:12.000Z', fresh_until: '2026-11-30T10:03:12.000Z' }),
      'POST /auth/2fa/confirm': (body) =>
        (body as { code: string }).code === '492039'
          ? ok({ ...sessionAs('BILLING_OWNER'), csrf_token: 'csrf-new', recovery_codes: CODES })
          : refused(400, 'totp_invalid', 'code: is not the current code of the authenticator app'),
      'POST /auth/password': refused(400, 'invalid_request', 'current_password: is not the current password'),
    });
    renderWithApp(<SecurityPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Set up two-factor' }));
    const confirmIt = await screen.findByRole('dialog', { name: /Confirm it is you/ });
    expect(within(confirmIt).getByText(/^Setting up two-factor needs your confirmation/)).toBeTruthy();
    fireEvent.change(within(confirmIt).getByLabelText(/^Password/), { target: { value: 'my password' } });
    fireEvent.click(within(confirmIt).getByRole('button', { name: 'Confirm' }));

    const qr = (await screen.findByRole('img', { name: /QR code/ })) as HTMLImageElement;
    expect(qr.src.startsWith('data:image/svg+xml')).toBe(true);
    expect(decodeURIComponent(qr.src)).toContain(SVG);
    expect(screen.getByLabelText('Secret key').textContent).toBe(SECRET);

    const code = screen.getByRole('textbox', { name: /^Code from your authenticator app/ });
    fireEvent.change(code, { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on two-factor' }));
    expect(await screen.findByText('code: is not the current code of the authenticator app')).toBeTruthy();

    fireEvent.change(code, { target: { value: '492 039' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on two-factor' }));
    const shown = await screen.findByRole('dialog', { name: 'Your recovery codes' });
    for (const c of CODES) expect(within(shown).getByText(new RegExp(c))).toBeTruthy();
    expect(api.calls('POST /auth/step-up')).toEqual([{ password: 'my password' }]);
    expect(api.calls('POST /auth/2fa/setup')).toHaveLength(2);
    expect(api.calls('POST /auth/2fa/confirm')).toEqual([{ code: '000000' }, { code: '492039' }]);

    fireEvent.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByText(new RegExp(CODES[0]))).toBeNull());
    expect(await screen.findByText(/10 of 10 recovery codes left/)).toBeTruthy();

    // The old session's CSRF value is refused from now on: the next change carries the new one.
    fireEvent.change(screen.getByLabelText(/^Current password/), { target: { value: 'x' } });
    fireEvent.change(screen.getByLabelText(/^New password/), { target: { value: 'a much longer passphrase' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('current_password: is not the current password')).toBeTruthy();
    const passwordCall = api.fetch.mock.calls.find(([url]) => url === '/api/auth/password');
    expect((passwordCall?.[1]?.headers as Record<string, string>)['X-CSRF-Token']).toBe('csrf-new');
  });

  it('when two-factor is turned off, then the chosen factor goes with the request', async () => {
    const api = fakeApi({ 'GET /auth/2fa': [ON, OFF], 'POST /auth/2fa/disable': ok({ enabled: false, enabled_at: null, recovery_codes_left: 0 }) });
    renderWithApp(<SecurityPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Turn off two-factor' }));
    const dialog = await screen.findByRole('dialog', { name: 'Turn off two-factor?' });
    fireEvent.click(within(dialog).getByText('Recovery code'));
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Recovery code/ }), { target: { value: 'K3MQ-7ZPA-X2VD' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByRole('button', { name: 'Set up two-factor' })).toBeTruthy();
    expect(api.calls('POST /auth/2fa/disable')).toEqual([{ recovery_code: 'K3MQ-7ZPA-X2VD' }]);
  });
});
