import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok, sessionAs } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import { DeliveriesPage } from './DeliveriesPage';
import { IntegrationsPage } from './IntegrationsPage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const base = {
  event_id: 'e0000000-0000-4000-8000-000000000001',
  incident_id: 'i0000000-0000-4000-8000-000000000001',
  type: 'incident.triggered',
  last_status_code: null,
  last_error: null,
  created_at: '2026-12-17T09:00:00.000Z',
  next_attempt_at: null,
  delivered_at: null,
  parked_at: null,
  skipped: false,
};
const webhook = {
  ...base,
  id: 'd1',
  consumer: 'outgoing-webhooks',
  target_id: 'w0000000-0000-4000-8000-000000000001',
  status: 'pending',
  attempts: 3,
  last_status_code: 503,
  last_error: 'answered 503',
  next_attempt_at: '2026-12-17T09:05:00.000Z',
};
const slack = {
  ...base,
  id: 'd2',
  consumer: 'slack',
  target_id: 'C0ALERTS01',
  status: 'parked',
  attempts: 0,
  last_error: 'skipped: Slack is not connected',
  parked_at: '2026-12-17T09:01:00.000Z',
  skipped: true,
};
const teams = {
  ...base,
  id: 'd3',
  consumer: 'microsoft-teams',
  target_id: 's0000000-0000-4000-8000-000000000001',
  status: 'delivered',
  attempts: 1,
  last_status_code: 202,
  delivered_at: '2026-12-17T08:59:00.000Z',
};
const page = (data: unknown[], next_cursor: string | null) => ({ status: 200, body: { success: true, data, message: 'ok', meta: { next_cursor } } });

describe('DeliveriesPage', () => {
  it('when deliveries of several consumers come, then each shows its integration, target, status and outcome, and “Older deliveries” fetches the next page by cursor', async () => {
    const api = fakeApi({
      'GET /deliveries?limit=50': page([webhook, slack], '17'),
      'GET /deliveries?cursor=17&limit=50': page([teams], null),
    });
    renderWithApp(<DeliveriesPage />);
    const table = await screen.findByRole('table', { name: 'Deliveries' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[0].textContent)).toEqual(['Outgoing webhooks', 'Slack']);
    expect(within(rows[0]).getByText('retrying')).toBeTruthy();
    expect(within(rows[0]).getByText('answered 503')).toBeTruthy();
    expect(within(rows[0]).getByText('503')).toBeTruthy();
    expect(within(rows[1]).getByText('skipped')).toBeTruthy();
    expect(within(rows[1]).getByText('C0ALERTS01')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Older deliveries' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    expect(within(within(table).getAllByRole('row')[3]).getByText('Microsoft Teams')).toBeTruthy();
    expect(within(within(table).getAllByRole('row')[3]).getByText('delivered')).toBeTruthy();
    expect(api.calls('GET /deliveries?cursor=17&limit=50')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Older deliveries' })).toBeNull();
  });

  it('when an integration is chosen, then only its deliveries are asked for', async () => {
    const api = fakeApi({
      'GET /deliveries?limit=50': page([webhook, slack], null),
      'GET /deliveries?consumer=slack&limit=50': page([slack], null),
    });
    renderWithApp(<DeliveriesPage />);
    await screen.findByRole('table', { name: 'Deliveries' });
    fireEvent.click(screen.getByRole('combobox', { name: 'Integration' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Slack', hidden: true }));
    await waitFor(() => expect(api.calls('GET /deliveries?consumer=slack&limit=50')).toHaveLength(1));
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Deliveries' })).getAllByRole('row')).toHaveLength(2));
  });

  it('when nothing was delivered yet, then it says so', async () => {
    fakeApi({ 'GET /deliveries?limit=50': page([], null) });
    renderWithApp(<DeliveriesPage />);
    expect(await screen.findByText('No deliveries here yet.')).toBeTruthy();
  });
});

describe('IntegrationsPage → Deliveries', () => {
  const integrations = ok({
    integrations: [
      { provider: 'slack', configured: true, connected: false, team_id: null, team_name: null, installed_at: null, installed_by: null },
      { provider: 'teams', configured: true, connected: false, services_with_webhook: 0 },
    ],
  });
  const session = (role: Parameters<typeof sessionAs>[0]) => ok({ ...sessionAs(role), organization: { id: 'o1', name: 'Acme', plan: 'PRO' } });

  it('when an admin opens Integrations, then it links to the deliveries view; a Member gets no link', async () => {
    fakeApi({ 'GET /auth/session': session('ACCOUNT_ADMIN'), 'GET /integrations': integrations });
    renderWithApp(<IntegrationsPage />);
    expect((await screen.findByRole('link', { name: 'Deliveries' })).getAttribute('href')).toBe('/integrations/deliveries');
    cleanup();
    fakeApi({ 'GET /auth/session': session('MEMBER'), 'GET /integrations': integrations });
    renderWithApp(<IntegrationsPage />);
    await screen.findByRole('region', { name: 'Slack' });
    expect(screen.queryByRole('link', { name: 'Deliveries' })).toBeNull();
  });
});
