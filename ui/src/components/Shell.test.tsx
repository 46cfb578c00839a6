import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionAs } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import { Shell } from './Shell';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the sidebar', () => {
  it('when signed in, then it is grouped Respond, Configure, Insights, Admin, with Notifications (and its unread count) under Respond, and the page shown is marked', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url === '/api/notifications/unread-count'
          ? new Response(JSON.stringify({ unread_count: 3 }), { status: 200, headers: { 'content-type': 'application/json' } })
          : new Response('{}', { status: 404 }),
      ),
    );
    renderWithApp(
      <Shell session={sessionAs('MEMBER')}>
        <p>page</p>
      </Shell>,
      { path: '/services/s1' },
    );
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const groupNames = within(nav)
      .getAllByRole('group')
      .map((g) => document.getElementById(g.getAttribute('aria-labelledby')!)?.textContent);
    expect(groupNames).toEqual(['Respond', 'Configure', 'Insights', 'Admin']);
    const respond = within(nav).getByRole('group', { name: 'Respond' });
    expect(
      within(respond)
        .getAllByRole('link')
        .map((a) => a.getAttribute('href')),
    ).toEqual(['/', '/on-call', '/notifications']);
    await within(respond).findByLabelText('3 unread');
    const services = within(within(nav).getByRole('group', { name: 'Configure' })).getByRole('link', { name: 'Services' });
    expect(services.getAttribute('data-active')).toBe('true');
    expect(within(respond).getByRole('link', { name: 'Incidents' }).getAttribute('data-active')).toBeNull();
  });
});
