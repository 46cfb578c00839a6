import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Incident } from '../api/types';
import { fakeApi, ok } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import { IncidentsPage } from './IncidentsPage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const incident = (n: number, over: Partial<Incident> = {}): Incident => ({
  id: `i${n}`,
  number: n,
  title: `Incident ${n}`,
  description: null,
  severity: 'HIGH',
  status: 'TRIGGERED',
  service_id: 's1',
  owning_team_id: 't1',
  alert_count: 1,
  created_at: new Date(Date.now() - 3 * 60_000).toISOString(),
  acknowledged_at: null,
  resolved_at: null,
  closed_at: null,
  links: { temporal_ui: null },
  ...over,
});

function serve(bulkAnswer: unknown) {
  return fakeApi({
    'GET /incidents?limit=50': {
      status: 200,
      body: {
        success: true,
        data: [incident(3), incident(2), incident(1, { status: 'RESOLVED' })],
        meta: { counts: { TRIGGERED: 2, RESOLVED: 1 }, next_cursor: null },
      },
    },
    'GET /services': ok([{ id: 's1', name: 'Checkout' }]),
    'GET /profile': ok({ id: 'u1', email: 'ada@example.test', name: 'Ada', role: 'MEMBER', time_zone: null }),
    'POST /incidents/bulk': ok(bulkAnswer),
  });
}

describe('the incident list', () => {
  it('when two incidents are checked and acknowledged together, then one bulk call names both, and each one’s result is listed', async () => {
    const { calls } = serve({
      results: [
        { id: 'i3', ok: true, number: 3, status: 'ACKNOWLEDGED' },
        { id: 'i1', ok: false, code: 'invalid_transition', error: 'incident #1 is RESOLVED: it cannot be acknowledged' },
      ],
    });
    renderWithApp(<IncidentsPage />);
    const row = await screen.findByRole('listitem', { name: '#3 Incident 3' });
    expect(row.textContent).toContain('opened 3 min ago');
    expect(screen.queryByRole('button', { name: 'Acknowledge selected' })).toBeNull();
    fireEvent.click(within(row).getByRole('checkbox', { name: 'Select #3' }));
    fireEvent.click(within(screen.getByRole('listitem', { name: '#1 Incident 1' })).getByRole('checkbox', { name: 'Select #1' }));
    fireEvent.click(screen.getByRole('button', { name: 'Acknowledge selected' }));
    await waitFor(() => expect(calls('POST /incidents/bulk')).toEqual([{ action: 'acknowledge', incident_ids: ['i3', 'i1'] }]));
    const results = await screen.findByRole('list', { name: 'Bulk results' });
    expect(within(results).getByRole('listitem', { name: '#3: ACKNOWLEDGED' })).toBeTruthy();
    expect(within(results).getByRole('listitem', { name: '#1: not done: incident #1 is RESOLVED: it cannot be acknowledged' })).toBeTruthy();
    expect(screen.getByText('Acknowledge: 1 of 2 done')).toBeTruthy();
    // The selection is cleared once done.
    expect((within(row).getByRole('checkbox', { name: 'Select #3' }) as HTMLInputElement).checked).toBe(false);
  });

  it('when "Select all shown" is checked and Resolve selected pressed, then every shown incident is sent', async () => {
    const { calls } = serve({ results: [] });
    renderWithApp(<IncidentsPage />);
    await screen.findByRole('listitem', { name: '#3 Incident 3' });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all shown' }));
    fireEvent.click(screen.getByRole('button', { name: 'Resolve selected' }));
    await waitFor(() => expect(calls('POST /incidents/bulk')).toEqual([{ action: 'resolve', incident_ids: ['i3', 'i2', 'i1'] }]));
  });
});
