import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok, sessionAs } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import { IntegrationsPage } from './IntegrationsPage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const session = (role: Parameters<typeof sessionAs>[0], plan = 'STARTER') => ok({ ...sessionAs(role), organization: { id: 'o1', name: 'Acme', plan } });
const slack = (over: Record<string, unknown> = {}) => ({
  provider: 'slack',
  configured: true,
  connected: false,
  team_id: null,
  team_name: null,
  installed_at: null,
  installed_by: null,
  ...over,
});
const teams = { provider: 'microsoft-teams', label: 'Microsoft Teams', configured: true, connected: false, services_with_webhook: 0, form: [] };
const list = (s: Record<string, unknown>) => ok({ integrations: [s, teams] });
const CONNECTED = slack({
  connected: true,
  team_id: 'T1',
  team_name: 'Acme Slack',
  installed_at: '2026-12-08T09:00:00.000Z',
  installed_by: { id: 'u1', name: 'Ada', email: 'ada@example.test' },
});

describe('IntegrationsPage', () => {
  it('when Slack is configured but not connected, then an admin gets “Connect Slack”, a plain link to the install route', async () => {
    fakeApi({ 'GET /auth/session': session('ACCOUNT_ADMIN'), 'GET /integrations': list(slack()) });
    renderWithApp(<IntegrationsPage />);
    const link = await screen.findByRole('link', { name: 'Connect Slack' });
    expect(link.getAttribute('href')).toBe('/api/integrations/slack/install');
    expect(within(screen.getByRole('region', { name: 'Microsoft Teams' })).getByText(/Workflows|workflow/)).toBeTruthy();
  });

  it('when a Member looks, then no button: they are told who can connect it', async () => {
    fakeApi({ 'GET /auth/session': session('MEMBER'), 'GET /integrations': list(slack()) });
    renderWithApp(<IntegrationsPage />);
    expect(await screen.findByText(/A Billing Owner or an Account Admin can connect it/)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Connect Slack' })).toBeNull();
  });

  it('when Slack is not configured, then the variables are named and the manifest is linked', async () => {
    fakeApi({ 'GET /auth/session': session('BILLING_OWNER'), 'GET /integrations': list(slack({ configured: false })) });
    renderWithApp(<IntegrationsPage />);
    expect(await screen.findByText('SLACK_SIGNING_SECRET')).toBeTruthy();
    expect(screen.getByText('SLACK_CLIENT_ID')).toBeTruthy();
    expect(screen.getByRole('link', { name: /app manifest/ }).getAttribute('href')).toBe('/api/integrations/slack/manifest');
    expect(screen.queryByRole('link', { name: 'Connect Slack' })).toBeNull();
  });

  it('when on FREE, then the plan message names STARTER and there is no connect button', async () => {
    fakeApi({ 'GET /auth/session': session('BILLING_OWNER', 'FREE'), 'GET /integrations': list(slack()) });
    renderWithApp(<IntegrationsPage />);
    expect(await screen.findByText(/Slack and Microsoft Teams come with STARTER and above/)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Connect Slack' })).toBeNull();
  });

  it('when Slack sent the browser back connected, then the notice says so and the card shows the Slack workspace and who connected it', async () => {
    fakeApi({ 'GET /auth/session': session('ACCOUNT_ADMIN'), 'GET /integrations': list(CONNECTED) });
    renderWithApp(<IntegrationsPage />, { path: '/integrations?slack=connected' });
    expect(await screen.findByText('Slack connected')).toBeTruthy();
    const card = await screen.findByRole('region', { name: 'Slack' });
    await waitFor(() => expect(card.textContent).toContain('Acme Slack'));
    expect(card.textContent).toContain('by Ada');
  });

  it('when the install failed, then the reason is shown', async () => {
    fakeApi({ 'GET /auth/session': session('ACCOUNT_ADMIN'), 'GET /integrations': list(slack()) });
    renderWithApp(<IntegrationsPage />, { path: '/integrations?slack=error&reason=access_denied' });
    expect((await screen.findByRole('alert')).textContent).toMatch(/not allowed in Slack/);
  });

  it('when an admin disconnects, then it asks first, then DELETEs and the list is fetched again', async () => {
    const api = fakeApi({
      'GET /auth/session': session('ACCOUNT_ADMIN'),
      'GET /integrations': [list(CONNECTED), list(slack())],
      'DELETE /integrations/slack': { status: 204, body: null },
    });
    renderWithApp(<IntegrationsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Disconnect' }));
    const dialog = await screen.findByRole('dialog', { name: /Disconnect Slack \(Acme Slack\)/ });
    expect(api.calls('DELETE /integrations/slack')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disconnect' }));
    await waitFor(() => expect(api.calls('DELETE /integrations/slack')).toHaveLength(1));
    expect(await screen.findByRole('link', { name: 'Connect Slack' })).toBeTruthy();
  });
});
