import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import { MonitoringPage } from './MonitoringPage';
import type { Heartbeat, UptimeView } from './types';

const backup: Heartbeat = {
  id: '4f0e0b0a-0000-4000-8000-000000000001',
  name: 'nightly backup',
  service_id: 's1',
  period_seconds: 86_400,
  grace_seconds: 600,
  status: 'ACTIVE',
  last_ping_at: new Date().toISOString(),
  created_at: '2026-01-01T00:00:00.000Z',
};
const uptime: UptimeView = {
  process_uptime_seconds: 1,
  system_uptime_seconds: 1,
  monitors: [],
  heartbeats: [{ id: backup.id, name: backup.name, paused: false, availability: { '24h': 1, '7d': 0.99, '30d': 0.947222 }, daily: [] }],
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('MonitoringPage', () => {
  it('when a heartbeat is listed, then its uptime bar is labelled with its 30-day figure, and Delete asks before deleting', async () => {
    const { calls } = fakeApi({
      'GET /services': ok([{ id: 's1', name: 'Backups' }]),
      'GET /heartbeats': ok([backup]),
      'GET /monitors': ok([]),
      'GET /uptime': ok(uptime),
      [`DELETE /heartbeats/${backup.id}`]: ok({ id: backup.id, deleted: true }),
    });
    renderWithApp(<MonitoringPage />);
    const row = (await screen.findByText('nightly backup')).closest('tr')!;
    expect(within(row).getByText('Up')).toBeTruthy();
    expect(await within(row).findByRole('img', { name: 'nightly backup: 94.72 % over 30 days' })).toBeTruthy();
    expect(screen.getByText(/No monitors yet/)).toBeTruthy();

    fireEvent.click(within(row).getByRole('button', { name: 'Delete nightly backup' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete heartbeat nightly backup?' });
    expect(calls(`DELETE /heartbeats/${backup.id}`)).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls(`DELETE /heartbeats/${backup.id}`)).toHaveLength(1));
  });
});
