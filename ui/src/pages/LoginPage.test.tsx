import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoginPage } from './LoginPage';


const answer = (status: number, body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderLogin() {
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <LoginPage />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
  fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'ada@example.test' } });
  fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'correct horse battery' } });
}

describe('LoginPage', () => {
  it('when the server answers totp_required, then it asks for the authentication code and sends it with the next try', async () => {
    const fetch = vi.fn()
      .mockReturnValueOnce(answer(401, { success: false, error: 'enter the code from your authenticator app', code: 'totp_required', timestamp: '' }))
      .mockReturnValueOnce(answer(200, { success: true, data: { csrf_token: 'c' }, message: 'logged in' }));
    vi.stubGlobal('fetch', fetch);
    renderLogin();
    expect(screen.queryByLabelText(/Authentication code/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    const code = await screen.findByLabelText(/Authentication code/);
    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
    expect(JSON.parse(fetch.mock.calls[1][1].body)).toEqual({ email: 'ada@example.test', password: 'correct horse battery', totp_code: '123456' });
  });

  it('when the password is wrong, then the server’s message is shown and no code is asked for', async () => {
    vi.stubGlobal('fetch', vi.fn().mockReturnValue(answer(401, { success: false, error: 'wrong email or password', code: 'unauthorized', timestamp: '' })));
    renderLogin();
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('wrong email or password')).toBeTruthy();
    expect(screen.queryByLabelText(/Authentication code/)).toBeNull();
  });
});
