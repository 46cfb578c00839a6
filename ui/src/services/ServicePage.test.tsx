import { cleanup, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import { ServicePage } from './ServicePage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the service page', () => {
  it('when a service is opened, then it shows its team, policy, own sources only, chat destinations and its incidents, each linked', async () => {
    fakeApi({
      'GET /services/s1': ok({ id: 's1', name: 'Checkout', description: 'Payments front door', owning_team_id: 't1', escalation_policy_id: 'p1' }),
      'GET /teams': ok([{ id: 't1', name: 'Payments' }]),
      'GET /escalation-policies': ok([{ id: 'p1', name: 'Primary' }]),
      'GET /sources?limit=200': ok([
        { id: 'w1', name: 'Prometheus', status: 'ACTIVE', service_id: 's1', channels: null },
        { id: 'w2', name: 'Other service’s source', status: 'ACTIVE', service_id: 's2', channels: null },
      ]),
      'GET /services/s1/chat': ok({ slack_channel_id: 'C1', slack_channel_name: 'payments-alerts', teams_webhook_url: null }),
      'GET /maintenance-windows?service_id=s1&state=active': ok([]),
      'GET /profile': ok({ id: 'u1', email: 'a@example.test', name: null, role: 'MEMBER', time_zone: null }),
      'GET /incidents?service_id=s1&limit=50': {
        status: 200,
        body: {
          success: true,
          data: [{ id: 'i9', number: 9, title: 'Checkout slow', status: 'ACKNOWLEDGED', created_at: new Date().toISOString(), service_id: 's1' }],
          meta: { counts: {}, next_cursor: null },
        },
      },
    });
    renderWithApp(
      <Routes>
        <Route path="/services/:id" element={<ServicePage />} />
      </Routes>,
      { path: '/services/s1' },
    );
    await screen.findByRole('heading', { name: 'Checkout' });
    await screen.findByText('Owned by Payments · Payments front door');
    expect((await screen.findByRole('link', { name: 'Primary' })).getAttribute('href')).toBe('/escalation-policies');
    const sources = await screen.findByRole('list', { name: 'Alert sources' });
    expect(within(sources).getByRole('listitem', { name: 'Prometheus' })).toBeTruthy();
    expect(within(sources).queryByRole('listitem', { name: 'Other service’s source' })).toBeNull();
    await screen.findByText('Slack: #payments-alerts');
    const incidents = await screen.findByRole('list', { name: 'Incidents of this service' });
    expect(within(incidents).getByRole('link', { name: '#9 Checkout slow' }).getAttribute('href')).toBe('/incidents/i9');
    expect(screen.getByRole('button', { name: 'Maintenance windows' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Chat settings' })).toBeTruthy();
  });
});
