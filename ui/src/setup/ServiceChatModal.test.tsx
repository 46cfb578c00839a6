import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok, refused, sessionAs } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import { optionsOf } from '../test/select-options';
import { ServiceChatModal } from './ServiceChatModal';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const SERVICE = { id: 's1', name: 'Payments API' };
const NOTHING = { slack_channel_id: null, slack_channel_name: null, teams_webhook_url: null };
const TEAMS_URL = 'https://example.webhook.office.com/workflows/abc';
const integrations = (connected: boolean) =>
  ok({
    integrations: [
      { provider: 'slack', configured: true, connected, team_id: null, team_name: null, installed_at: null, installed_by: null },
      { provider: 'teams', configured: true, connected: false, services_with_webhook: 0 },
    ],
  });
const CHANNELS = ok({
  channels: [
    { id: 'C0ALERTS01', name: 'alerts', is_private: false },
    { id: 'C0OPS00002', name: 'ops', is_private: false },
  ],
});
const render = () => renderWithApp(<ServiceChatModal service={SERVICE} onClose={() => undefined} />);

describe('ServiceChatModal', () => {
  it('when a channel is picked and saved, then only it is PUT, and the test button waits for a saved Teams URL', async () => {
    const api = fakeApi({
      'GET /auth/session': ok(sessionAs('ACCOUNT_ADMIN')),
      'GET /services/s1/chat': ok(NOTHING),
      'GET /integrations': integrations(true),
      'GET /integrations/slack/channels': CHANNELS,
      'PUT /services/s1/chat': (body) =>
        ok({ ...NOTHING, slack_channel_id: (body as { slack_channel_id: string }).slack_channel_id, slack_channel_name: 'alerts' }),
    });
    render();
    const dialog = await screen.findByRole('dialog', { name: 'Chat for Payments API' });
    await within(dialog).findByRole('textbox', { name: /Teams Workflows URL/ });
    expect((within(dialog).getByRole('button', { name: 'Send test card' }) as HTMLButtonElement).disabled).toBe(true);
    const select = await within(dialog).findByRole('combobox', { name: /Slack channel/ });
    await waitFor(() => expect((select as HTMLInputElement).disabled).toBe(false));
    fireEvent.click((await optionsOf(select)).getByRole('option', { name: '#alerts', hidden: true }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls('PUT /services/s1/chat')).toEqual([{ slack_channel_id: 'C0ALERTS01' }]));
    expect(await within(dialog).findByText('Saved.')).toBeTruthy();
  });

  it('when the server refuses the Teams URL, then its message shows next to the field', async () => {
    const api = fakeApi({
      'GET /auth/session': ok(sessionAs('ACCOUNT_ADMIN')),
      'GET /services/s1/chat': ok(NOTHING),
      'GET /integrations': integrations(false),
      'PUT /services/s1/chat': refused(400, 'invalid_request', 'teams_webhook_url: targets a private address (10.0.0.0/8)'),
    });
    render();
    const dialog = await screen.findByRole('dialog', { name: 'Chat for Payments API' });
    await within(dialog).findByRole('textbox', { name: /Teams Workflows URL/ });
    expect(within(dialog).getByText(/Slack is not connected/)).toBeTruthy();
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Teams Workflows URL/ }), { target: { value: ' https://10.0.0.5/x ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(/teams_webhook_url: targets a private address/)).toBeTruthy();
    expect(api.calls('PUT /services/s1/chat')).toEqual([{ teams_webhook_url: 'https://10.0.0.5/x' }]);
  });

  it('when a Teams URL is saved, then “Send test card” posts the test and shows what Teams answered', async () => {
    const api = fakeApi({
      'GET /auth/session': ok(sessionAs('ACCOUNT_ADMIN')),
      'GET /services/s1/chat': ok({ ...NOTHING, teams_webhook_url: TEAMS_URL }),
      'GET /integrations': integrations(false),
      'POST /services/s1/chat/teams/test': [
        ok({ delivered: false, status_code: 400, error: 'Bad Request' }),
        ok({ delivered: true, status_code: 202, error: null }),
      ],
    });
    render();
    const dialog = await screen.findByRole('dialog', { name: 'Chat for Payments API' });
    await within(dialog).findByRole('textbox', { name: /Teams Workflows URL/ });
    expect((within(dialog).getByRole('textbox', { name: /Teams Workflows URL/ }) as HTMLInputElement).value).toBe(TEAMS_URL);
    const button = within(dialog).getByRole('button', { name: 'Send test card' });
    fireEvent.click(button);
    expect(await within(dialog).findByText('Test card not delivered: Bad Request, HTTP 400.')).toBeTruthy();
    fireEvent.click(button);
    expect(await within(dialog).findByText('Test card delivered (HTTP 202).')).toBeTruthy();
    expect(api.calls('POST /services/s1/chat/teams/test')).toHaveLength(2);
  });
});
