import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok, refused, type FakeRoutes } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import type { ContactMethod } from './contact-methods';
import { SlackDirectMessages } from './SlackDirectMessages';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const slack = (over: Record<string, unknown>) => ({
  provider: 'slack',
  configured: true,
  connected: true,
  team_id: 'T0KLAXON1',
  team_name: 'Acme Slack',
  installed_at: '2026-11-27T05:00:00.000Z',
  installed_by: null,
  ...over,
});
const linked: ContactMethod = {
  id: 'c9',
  user_id: 'u1',
  type: 'slack',
  address: 'U0ADA0001',
  label: null,
  disabled_at: null,
  disabled_reason: null,
  verified_at: '2026-11-27T05:00:00.000Z',
  created_at: '2026-11-27T05:00:00.000Z',
};

function serve(integration: Record<string, unknown>, methods: ContactMethod[], routes: FakeRoutes = {}) {
  const api = fakeApi({ 'GET /integrations': ok({ integrations: [slack(integration)] }), ...routes });
  renderWithApp(<SlackDirectMessages methods={methods} />);
  return api;
}

describe('SlackDirectMessages', () => {
  it('when Slack is connected and I am not linked, then linking posts to /me/slack/link; Slack not knowing my email is said in words', async () => {
    const { calls } = serve({}, [], { 'POST /me/slack/link': refused(404, 'slack_user_not_found', 'no member of Acme Slack has the email ada@example.test') });
    fireEvent.click(await screen.findByRole('button', { name: 'Link my Slack account' }));
    expect((await screen.findByRole('alert')).textContent).toContain('no member of Acme Slack has the email ada@example.test');
    expect(calls('POST /me/slack/link')).toHaveLength(1);
  });

  it('when Slack is not connected to the workspace, then the link button is disabled and the page says an admin connects it', async () => {
    serve({ connected: false, team_id: null, team_name: null, installed_at: null }, []);
    expect((await screen.findByRole('button', { name: 'Link my Slack account' })).hasAttribute('disabled')).toBe(true);
    expect(screen.getByText(/an admin connects it on the Integrations page/)).toBeTruthy();
  });

  it('when I am linked, then my Slack member shows and Unlink sends DELETE /me/slack/link', async () => {
    const { calls } = serve({}, [linked], { 'DELETE /me/slack/link': { status: 204, body: null } });
    expect(await screen.findByText(/Slack member U0ADA0001 in Acme Slack/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Unlink Slack' }));
    await waitFor(() => expect(calls('DELETE /me/slack/link')).toHaveLength(1));
  });

  it('when the Slack app is not configured, then the section is not shown at all', async () => {
    const { fetch } = serve({ configured: false, connected: false }, []);
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText('Slack DMs')).toBeNull();
  });
});
