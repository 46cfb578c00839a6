import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok, refused } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import { ChatDestinations } from './ChatDestinations';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const urlField = (name: string, label: string, help: string) => ({ name, label, kind: 'url', required: true, secret: true, help });
/** Providers as GET /api/integrations lists them: the dashboard knows none of them by name. */
const integrations = ok({
  integrations: [
    { provider: 'slack', configured: false, connected: false, team_id: null, team_name: null, installed_at: null, installed_by: null },
    {
      provider: 'microsoft-teams',
      label: 'Microsoft Teams',
      configured: true,
      connected: true,
      services_with_webhook: 1,
      form: [urlField('webhook_url', 'Workflows webhook URL', 'From Teams')],
    },
    {
      provider: 'discord',
      label: 'Discord',
      configured: true,
      connected: false,
      services_with_webhook: 0,
      form: [urlField('webhook_url', 'Channel webhook URL', 'From Discord')],
    },
  ],
});
const chat = ok({
  destinations: [{ provider: 'microsoft-teams', settings: { webhook_url: '…sig1' } }],
  slack_channel_id: null,
  slack_channel_name: null,
  teams_webhook_url: null,
});

describe('a service’s chat destinations', () => {
  it('when the registry lists a provider the dashboard has no code for, then its form is rendered from its declared fields and Save PUTs its settings', async () => {
    const fake = fakeApi({
      'GET /integrations': integrations,
      'GET /services/s1/chat': chat,
      'PUT /services/s1/chat/discord': ok({ provider: 'discord', settings: { webhook_url: '…wxyz' } }),
    });
    renderWithApp(<ChatDestinations serviceId="s1" />);
    const discord = await screen.findByRole('region', { name: 'Discord' });
    const input = within(discord).getByRole('textbox', { name: /Channel webhook URL/ });
    expect(within(discord).getByText('From Discord')).toBeTruthy();
    fireEvent.change(input, { target: { value: ' https://discord.com/api/webhooks/1/abc ' } });
    fireEvent.click(within(discord).getByRole('button', { name: 'Save Discord' }));
    await waitFor(() => expect(fake.calls('PUT /services/s1/chat/discord')).toEqual([{ settings: { webhook_url: 'https://discord.com/api/webhooks/1/abc' } }]));
    expect(within(discord).queryByRole('button', { name: 'Remove Discord' })).toBeNull();
  });

  it('when the server refuses a field, then its message shows next to that field', async () => {
    fakeApi({
      'GET /integrations': integrations,
      'GET /services/s1/chat': chat,
      'PUT /services/s1/chat/discord': refused(400, 'invalid_request', 'settings.webhook_url: must be a Discord webhook URL'),
    });
    renderWithApp(<ChatDestinations serviceId="s1" />);
    const discord = await screen.findByRole('region', { name: 'Discord' });
    fireEvent.change(within(discord).getByRole('textbox', { name: /Channel webhook URL/ }), { target: { value: 'https://example.com/x' } });
    fireEvent.click(within(discord).getByRole('button', { name: 'Save Discord' }));
    expect(await within(discord).findByText(/must be a Discord webhook URL/)).toBeTruthy();
  });

  it('when a provider is set, then its secret shows masked and Remove DELETEs it', async () => {
    const fake = fakeApi({
      'GET /integrations': integrations,
      'GET /services/s1/chat': chat,
      'DELETE /services/s1/chat/microsoft-teams': { status: 204, body: null },
    });
    renderWithApp(<ChatDestinations serviceId="s1" />);
    const teams = await screen.findByRole('region', { name: 'Microsoft Teams' });
    await waitFor(() =>
      expect(
        within(teams)
          .getByRole('textbox', { name: /Workflows webhook URL/ })
          .getAttribute('placeholder'),
      ).toBe('…sig1'),
    );
    fireEvent.click(within(teams).getByRole('button', { name: 'Remove Microsoft Teams' }));
    await waitFor(() =>
      expect(fake.fetch.mock.calls.some(([url, init]) => String(url).endsWith('/services/s1/chat/microsoft-teams') && init?.method === 'DELETE')).toBe(true),
    );
    expect(screen.queryByRole('region', { name: 'Slack' })).toBeNull();
  });
});
