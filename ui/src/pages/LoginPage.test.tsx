import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok, refused } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import { LoginPage } from './LoginPage';

const LOGIN = 'POST /auth/login';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderLogin() {
  renderWithApp(<LoginPage />);
  fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'ada@example.test' } });
  fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'correct horse battery' } });
}

describe('LoginPage', () => {
  it('when the server answers totp_required, then it asks for the authentication code and sends it with the next try', async () => {
    const { calls } = fakeApi({ [LOGIN]: [refused(401, 'totp_required', 'enter the code from your authenticator app'), ok({ csrf_token: 'c' }, 'logged in')] });
    renderLogin();
    expect(screen.queryByLabelText(/Authentication code/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    const code = await screen.findByLabelText(/Authentication code/);
    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(calls(LOGIN)).toHaveLength(2));
    expect(calls(LOGIN)[1]).toEqual({ email: 'ada@example.test', password: 'correct horse battery', totp_code: '123456' });
  });

  it('when the password is wrong, then the server’s message is shown and no code is asked for', async () => {
    fakeApi({ [LOGIN]: refused(401, 'unauthorized', 'wrong email or password') });
    renderLogin();
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('wrong email or password')).toBeTruthy();
    expect(screen.queryByLabelText(/Authentication code/)).toBeNull();
  });
});
