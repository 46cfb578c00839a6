import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok, refused, sessionAs } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import { exactTime } from '../time/format';
import { MaintenanceBanner } from './MaintenanceBanner';
import { MaintenanceModal } from './MaintenanceModal';
import type { MaintenanceWindow } from './maintenance';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ENDS = '2026-12-01T11:00:00.000Z';
const windowOf = (over: Partial<MaintenanceWindow> = {}): MaintenanceWindow => ({
  id: 'w1',
  service_ids: ['s1'],
  starts_at: '2026-12-01T10:00:00.000Z',
  ends_at: ENDS,
  reason: 'Database upgrade',
  state: 'active',
  ended_early_at: null,
  created_by: null,
  created_at: '2026-12-01T09:59:00.000Z',
  ...over,
});
const SERVICE = { id: 's1', name: 'Payments API' };

describe('MaintenanceBanner', () => {
  it('when a window of the service is active, then the banner names it and its end, and says the incident’s paging is held', async () => {
    fakeApi({
      'GET /auth/session': ok(sessionAs('MEMBER')),
      'GET /maintenance-windows?service_id=s1&state=active': ok([windowOf()]),
      'GET /profile': ok({ id: 'u1', email: 'ada@example.test', name: 'Ada', role: 'MEMBER', time_zone: 'Pacific/Auckland' }),
    });
    renderWithApp(<MaintenanceBanner serviceId="s1" pagingHeldUntil={ENDS} />);
    // The held line shows at once (from the incident), the window's once it is read.
    await screen.findByText(/“Database upgrade” until/);
    const banner = screen.getByRole('status', { name: 'Maintenance window' });
    expect(banner.textContent).toContain('incidents of this service page nobody');
    await waitFor(() => expect(banner.textContent).toContain(`Paging of this incident is held until ${exactTime(ENDS, 'Pacific/Auckland')}`));
  });

  it('when no window is active and the incident is not held, then there is no banner', async () => {
    const api = fakeApi({ 'GET /auth/session': ok(sessionAs('MEMBER')), 'GET /maintenance-windows?service_id=s1&state=active': ok([]) });
    renderWithApp(<MaintenanceBanner serviceId="s1" />);
    await waitFor(() => expect(api.calls('GET /maintenance-windows?service_id=s1&state=active')).toHaveLength(1));
    expect(screen.queryByRole('status', { name: 'Maintenance window' })).toBeNull();
  });
});

describe('MaintenanceModal', () => {
  const render = () => renderWithApp(<MaintenanceModal service={SERVICE} onClose={() => undefined} />);
  const listKey = 'GET /maintenance-windows?service_id=s1&limit=20';

  it('when a window is started now for 30 minutes, then it is POSTed for the service and the list shows it with End now and Delete', async () => {
    const api = fakeApi({
      'GET /auth/session': ok(sessionAs('ACCOUNT_ADMIN')),
      [listKey]: [ok([]), ok([windowOf()])],
      'POST /maintenance-windows': ok(windowOf(), 'maintenance window active', 201),
      'POST /maintenance-windows/w1/end': ok(windowOf({ state: 'ended' })),
      'DELETE /maintenance-windows/w1': ok(windowOf()),
    });
    render();
    const dialog = await screen.findByRole('dialog', { name: 'Maintenance of Payments API' });
    expect(await within(dialog).findByText('No window for this service.')).toBeTruthy();
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Reason' }), { target: { value: 'Database upgrade' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Minutes' }), { target: { value: '30' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start now' }));
    await waitFor(() => expect(api.calls('POST /maintenance-windows')).toEqual([{ service_ids: ['s1'], reason: 'Database upgrade', minutes: 30 }]));
    const table = await within(dialog).findByRole('table', { name: 'Maintenance windows' });
    expect(within(table).getByText('active')).toBeTruthy();
    fireEvent.click(within(table).getByRole('button', { name: 'End “Database upgrade” now' }));
    await waitFor(() => expect(api.calls('POST /maintenance-windows/w1/end')).toHaveLength(1));
    fireEvent.click(within(table).getByRole('button', { name: 'Delete “Database upgrade”' }));
    await waitFor(() => expect(api.calls('DELETE /maintenance-windows/w1')).toHaveLength(1));
  });

  it('when the server refuses a scheduled window’s end, then its message shows next to the Ends field', async () => {
    fakeApi({
      'GET /auth/session': ok(sessionAs('ACCOUNT_ADMIN')),
      [listKey]: ok([]),
      'POST /maintenance-windows': refused(400, 'invalid_request', 'ends_at: must be after starts_at'),
    });
    render();
    const dialog = await screen.findByRole('dialog', { name: 'Maintenance of Payments API' });
    fireEvent.change(within(dialog).getByLabelText('Starts'), { target: { value: '2026-12-01T12:00' } });
    fireEvent.change(within(dialog).getByLabelText('Ends'), { target: { value: '2026-12-01T11:00' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    expect(await within(dialog).findByText(/must be after starts_at/)).toBeTruthy();
  });
});
