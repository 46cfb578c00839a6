import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignedIn } from '../App';
import { ok, sessionAs } from '../test/fake-api';
import { renderWithApp } from '../test/render';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('offline', () => {
  it('when Klaxon cannot be reached, then a styled offline page says so with Retry; once reachable, Retry opens the page', async () => {
    let reachable = false;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (!reachable) throw new TypeError('Failed to fetch');
        const body = url === '/api/auth/session' ? ok(sessionAs('MEMBER')).body : { success: false, error: 'no fake', code: 'not_found' };
        return new Response(JSON.stringify(body), { status: url === '/api/auth/session' ? 200 : 404, headers: { 'content-type': 'application/json' } });
      }),
    );
    renderWithApp(
      <SignedIn>
        <p>The incident list</p>
      </SignedIn>,
    );
    const offline = await screen.findByRole('alert', { name: 'Offline' });
    expect(offline.textContent).toContain('you are offline or the server is down');
    expect(screen.queryByText('The incident list')).toBeNull();

    reachable = true;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByText('The incident list');
    expect(screen.queryByRole('alert', { name: 'Offline' })).toBeNull();
  });
});
