import { INCIDENT_EVENT_TYPES } from '../../../src/domain/incident-events';
import type { Delivery, OutgoingWebhook } from './types';

export { INCIDENT_EVENT_TYPES };

/** The form's fields: empty lists mean "all" (the server stores NULL). */
export interface SubscriptionForm {
  url: string;
  description: string;
  eventTypes: string[];
  serviceIds: string[];
}

export const EMPTY_FORM: SubscriptionForm = { url: '', description: '', eventTypes: [], serviceIds: [] };

/** The form as a subscription shows it: the full list of event types reads as "all" (empty). */
export const formOf = (h: OutgoingWebhook): SubscriptionForm => ({
  url: h.url,
  description: h.description ?? '',
  eventTypes: takesAllEvents(h) ? [] : h.event_types,
  serviceIds: h.service_ids,
});

/** The body of POST and PUT /api/outgoing-webhooks: null for "all". */
export const bodyOf = (f: SubscriptionForm) => ({
  url: f.url.trim(),
  description: f.description.trim() || null,
  event_types: f.eventTypes.length ? f.eventTypes : null,
  service_ids: f.serviceIds.length ? f.serviceIds : null,
});

export const takesAllEvents = (h: Pick<OutgoingWebhook, 'event_types'>): boolean => INCIDENT_EVENT_TYPES.every((t) => h.event_types.includes(t));

export type DeliveryStatus = 'delivered' | 'pending' | 'retrying' | 'failed';

/** What a delivery's row says: delivered; pending (not tried yet); retrying (tried, due again); failed (given up). */
export function deliveryStatus(d: Delivery): DeliveryStatus {
  if (d.delivered_at) return 'delivered';
  if (d.next_attempt_at) return d.attempts === 0 ? 'pending' : 'retrying';
  return 'failed';
}

export const STATUS_COLORS: Record<DeliveryStatus, string> = { delivered: 'green', pending: 'gray', retrying: 'yellow', failed: 'red' };

export const when = (iso: string | null): string => (iso ? new Date(iso).toLocaleString() : '—');
