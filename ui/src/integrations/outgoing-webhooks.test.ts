import { describe, expect, it } from 'vitest';
import { bodyOf, deliveryStatus, formOf, INCIDENT_EVENT_TYPES, takesAllEvents } from './outgoing-webhooks';
import type { Delivery } from './types';

const base: Delivery = {
  id: 'd',
  event_id: 'e',
  type: 'ping',
  attempts: 0,
  last_status_code: null,
  last_error: null,
  latency_ms: null,
  delivered_at: null,
  next_attempt_at: '2026-12-05T09:00:00.000Z',
};

describe('outgoing webhook helpers', () => {
  it('when a delivery is read, then its status is delivered, pending (not tried), retrying (tried, due again) or failed (given up)', () => {
    expect(deliveryStatus(base)).toBe('pending');
    expect(deliveryStatus({ ...base, attempts: 2, last_status_code: 503 })).toBe('retrying');
    expect(deliveryStatus({ ...base, attempts: 1, delivered_at: '2026-12-05T09:00:01.000Z', next_attempt_at: null })).toBe('delivered');
    expect(deliveryStatus({ ...base, attempts: 8, next_attempt_at: null })).toBe('failed');
  });

  it('when a form is sent, then empty lists and description mean "all" and "none" (null), the URL trimmed', () => {
    expect(bodyOf({ url: ' https://x.test/h ', description: ' ', eventTypes: [], serviceIds: [] })).toEqual({
      url: 'https://x.test/h',
      description: null,
      event_types: null,
      service_ids: null,
    });
    expect(bodyOf({ url: 'https://x.test/h', description: 'bus', eventTypes: ['incident.resolved'], serviceIds: ['s1'] })).toEqual({
      url: 'https://x.test/h',
      description: 'bus',
      event_types: ['incident.resolved'],
      service_ids: ['s1'],
    });
  });

  it('when a subscription taking every event type is edited, then its form shows "all" (an empty list), not each type', () => {
    const all = { id: 'h', url: 'https://x.test/h', description: null, event_types: [...INCIDENT_EVENT_TYPES], service_ids: [], enabled: true, created_at: '' };
    expect(takesAllEvents(all)).toBe(true);
    expect(formOf(all)).toEqual({ url: 'https://x.test/h', description: '', eventTypes: [], serviceIds: [] });
    expect(formOf({ ...all, event_types: ['page.failed'] }).eventTypes).toEqual(['page.failed']);
  });
});
