import { describe, expect, it } from 'vitest';
import { formOfMonitor, monitorBody, monitorChanges, NEW_MONITOR, parseStatusCodes } from './monitor-form';
import type { Monitor } from './types';

const monitor: Monitor = {
  id: 'm1',
  service_id: 's1',
  name: 'Storefront',
  url: 'https://shop.example.com/health',
  method: 'GET',
  interval_seconds: 60,
  timeout_seconds: 10,
  expected_status_codes: null,
  keyword: 'All good',
  failure_threshold: 3,
  status: 'ACTIVE',
  state: 'UP',
  consecutive_failures: 0,
  last_checked_at: null,
  last_check: null,
  uptime_24h: null,
  open_incident_id: null,
  created_at: '2026-12-01T09:00:00.000Z',
  updated_at: '2026-12-01T09:00:00.000Z',
};

describe('monitor form ↔ body', () => {
  it("when the form is filled, then the body has the API's fields: codes as numbers, empty keyword and codes as null", () => {
    const body = monitorBody({
      ...NEW_MONITOR,
      name: 'Shop',
      service_id: 's1',
      url: ' https://shop.example.com ',
      interval_seconds: 120,
      expected_status_codes: '200, 204 301',
    });
    expect(body).toEqual({
      name: 'Shop',
      service_id: 's1',
      url: 'https://shop.example.com',
      method: 'GET',
      interval_seconds: 120,
      timeout_seconds: 10,
      expected_status_codes: [200, 204, 301],
      keyword: null,
      failure_threshold: 3,
    });
  });

  it('when a status code is not three digits, then the form names the field and nothing is sent', () => {
    expect(parseStatusCodes('200, 2xx')).toEqual({
      field: 'expected_status_codes',
      message: expect.stringMatching(/^expected_status_codes: "2xx" is not an HTTP status/),
    });
    expect(parseStatusCodes('  ')).toBeNull();
  });

  it('when a monitor is edited, then only the changed fields are sent (an unchanged service is not)', () => {
    const body = monitorBody({ ...formOfMonitor(monitor), keyword: 'Welcome', interval_seconds: 120 });
    if ('field' in body) throw new Error('unexpected problem');
    expect(monitorChanges(monitor, body)).toEqual({ keyword: 'Welcome', interval_seconds: 120 });
    const cleared = monitorBody({ ...formOfMonitor(monitor), keyword: '', expected_status_codes: '200' });
    if ('field' in cleared) throw new Error('unexpected problem');
    expect(monitorChanges(monitor, cleared)).toEqual({ keyword: null, expected_status_codes: [200] });
  });
});
