import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VerifyPage } from './TokenPages';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('VerifyPage', () => {
  it('when the emailed link is opened, then the token is sent once (it works once) and the page says the address is verified', async () => {
    const fetch = vi.fn().mockResolvedValue(new Response(JSON.stringify({ success: true, data: { verified: true }, message: 'ok' }), { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    const page = (
      <MantineProvider>
        <MemoryRouter initialEntries={['/verify?token=abc123']}>
          <VerifyPage />
        </MemoryRouter>
      </MantineProvider>
    );
    const { rerender } = render(page);
    expect(await screen.findByText('Email verified')).toBeTruthy();
    rerender(page);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(JSON.parse(fetch.mock.calls[0][1].body)).toEqual({ token: 'abc123' });
  });
});
