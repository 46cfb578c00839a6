import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok, sessionAs } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import { ServicesCard } from './ServicesCard';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ENDS = '2026-12-01T11:00:00.000Z';

describe('ServicesCard', () => {
  it('when a service is in a maintenance window, then its row says until when, and its Maintenance button opens its windows', async () => {
    fakeApi({
      'GET /auth/session': ok(sessionAs('ACCOUNT_ADMIN')),
      'GET /teams': ok([{ id: 't1', name: 'Ops' }]),
      'GET /escalation-policies': ok([]),
      'GET /services': ok([
        { id: 's1', name: 'Payments API', owning_team_id: 't1', escalation_policy_id: null },
        { id: 's2', name: 'Search', owning_team_id: 't1', escalation_policy_id: null },
      ]),
      'GET /maintenance-windows?state=active': ok([
        {
          id: 'w1',
          service_ids: ['s1'],
          starts_at: '2026-12-01T10:00:00.000Z',
          ends_at: ENDS,
          reason: 'Database upgrade',
          state: 'active',
          ended_early_at: null,
          created_by: null,
          created_at: '2026-12-01T10:00:00.000Z',
        },
      ]),
      'GET /maintenance-windows?service_id=s1&limit=20': ok([]),
    });
    renderWithApp(<ServicesCard />);
    const table = await screen.findByRole('table', { name: 'Services' });
    const payments = (await within(table).findByText(/In maintenance until/)).closest('tr')!;
    expect(payments.textContent).toContain('Payments API');
    expect(payments.textContent).toContain(new Date(ENDS).toLocaleString());
    const search = within(table).getByText('Search').closest('tr')!;
    expect(search.textContent).not.toContain('In maintenance');

    fireEvent.click(within(table).getByRole('button', { name: 'Maintenance of Payments API' }));
    expect(await screen.findByRole('dialog', { name: 'Maintenance of Payments API' })).toBeTruthy();
  });
});
