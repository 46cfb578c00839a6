import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AlertView, IncidentDetail } from '../api/types';
import { fakeApi, ok } from '../test/fake-api';
import { renderWithApp } from '../test/render';
import { IncidentAlerts } from './IncidentAlerts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ID = '66666666-6666-4666-8666-666666666666';
const alert = (n: number): AlertView => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  title: `disk full ${n}`,
  message: null,
  severity: 'HIGH',
  status: 'ACTIVE',
  source: null,
  tags: null,
  url: null,
  created_at: '2026-11-30T10:00:00.000Z',
});
const incident = (over: Partial<IncidentDetail> = {}) =>
  ({
    id: ID,
    alert_count: 150,
    grouping: { rule: 'disk by host', key: 'labels.host=db-1' },
    alerts: Array.from({ length: 20 }, (_, i) => alert(i)),
    ...over,
  }) as IncidentDetail;

describe('IncidentAlerts', () => {
  it('when a grouped incident holds more alerts than it came with, then its rule, key and count show, and further pages load on demand', async () => {
    const { calls } = fakeApi({
      [`GET /incidents/${ID}/alerts?limit=100&offset=20`]: ok(Array.from({ length: 100 }, (_, i) => alert(20 + i))),
      [`GET /incidents/${ID}/alerts?limit=100&offset=120`]: ok(Array.from({ length: 30 }, (_, i) => alert(120 + i))),
    });
    renderWithApp(<IncidentAlerts incident={incident()} />);
    expect(screen.getByText('Alerts (150)')).toBeTruthy();
    expect(screen.getByText('labels.host=db-1')).toBeTruthy();
    expect(screen.getByText('disk by host')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Show more alerts \(130 not shown\)/ }));
    expect(await screen.findByText('disk full 119')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Show more alerts \(30 not shown\)/ }));
    expect(await screen.findByText('disk full 149')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Show more alerts/ })).toBeNull();
    expect(calls(`GET /incidents/${ID}/alerts?limit=100&offset=20`)).toHaveLength(1);
  });

  it('when an incident is a storm incident, then it says why its alerts are here', () => {
    renderWithApp(<IncidentAlerts incident={incident({ grouping: undefined, storm_source_id: 'x', alert_count: 1, alerts: [alert(1)] })} />);
    expect(screen.getByText(/Storm incident: its source opened too many incidents at once/)).toBeTruthy();
  });
});
