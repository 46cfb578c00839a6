import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, refused } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import { LoginPage } from './LoginPage';
import { SsoLoginForm, ssoStartPath } from './SsoLoginForm';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Log in with SSO', () => {
  it('when a work email is given, then the browser goes to /auth/sso/start with it', () => {
    const go = vi.fn();
    renderWithApp(<SsoLoginForm go={go} />);
    fireEvent.change(screen.getByLabelText(/^Work email/), { target: { value: ' ada+ops@acme.com ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue with SSO' }));
    expect(go).toHaveBeenCalledWith('/auth/sso/start?email=ada%2Bops%40acme.com');
    expect(ssoStartPath('a b@c.d')).toBe('/auth/sso/start?email=a%20b%40c.d');
  });

  it('when the login page’s “Log in with SSO” link is followed, then it asks for the work email only, and “Log in” stays the one button of that name', async () => {
    renderWithApp(<LoginPage />);
    expect(screen.getAllByRole('button', { name: /Log in/ })).toHaveLength(1);
    fireEvent.click(screen.getByRole('link', { name: 'Log in with SSO' }));
    expect(await screen.findByLabelText(/^Work email/)).toBeTruthy();
    expect(screen.queryByLabelText(/^Password/)).toBeNull();
  });

  it('when a password login answers sso_required, then the page switches to SSO and says why', async () => {
    fakeApi({ 'POST /auth/login': refused(403, 'sso_required', 'this workspace requires single sign-on') });
    renderWithApp(<LoginPage />);
    fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'ada@acme.com' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'correct horse battery' } });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('this workspace requires single sign-on')).toBeTruthy();
    expect((screen.getByLabelText(/^Work email/) as HTMLInputElement).value).toBe('ada@acme.com');
  });
});
