import { INCIDENT_EVENT_TYPES } from '../../domain/incident-events';
import { iso, isoOrNull } from '../../db/timestamps';

/** A subscription's row (`outgoing_webhooks`), as knex reads it. */
export interface OutgoingWebhookRow {
  id: string;
  organization_id: string;
  url: string;
  description: string | null;
  /** jsonb; null: every event type. */
  event_types: string[] | null;
  /** jsonb; null: every service. */
  service_ids: string[] | null;
  enabled: boolean;
  secret_sealed: string;
  created_by: string | null;
  failing_since: Date | string | null;
  disabled_reason: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/**
 * A subscription as the dashboard shows it (docs/api/outgoing-webhooks.md). "All" is stored as
 * NULL and answered as the full list of event types, and as `[]` for services. Never the secret.
 */
export interface OutgoingWebhookJson {
  id: string;
  url: string;
  description: string | null;
  event_types: string[];
  service_ids: string[];
  enabled: boolean;
  created_at: string;
}

export const outgoingWebhookJson = (r: OutgoingWebhookRow): OutgoingWebhookJson => ({
  id: r.id,
  url: r.url,
  description: r.description,
  event_types: r.event_types ?? [...INCIDENT_EVENT_TYPES],
  service_ids: r.service_ids ?? [],
  enabled: r.enabled,
  created_at: iso(r.created_at),
});

/** A delivery's row (`feed_deliveries`, consumer `outgoing-webhooks`): the columns the log shows. */
export interface DeliveryRow {
  id: string;
  event_id: string;
  type: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  latency_ms: number | null;
  delivered_at: Date | string | null;
  next_attempt_at: Date | string | null;
}

export const DELIVERY_COLUMNS = [
  'id',
  'event_id',
  'type',
  'attempts',
  'last_status_code',
  'last_error',
  'latency_ms',
  'delivered_at',
  'next_attempt_at',
] as const;

/** One delivery in the log; `event_id` is the `webhook-id` header the receiver saw (kept by a redelivery). */
export interface DeliveryJson {
  id: string;
  event_id: string;
  type: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  latency_ms: number | null;
  delivered_at: string | null;
  next_attempt_at: string | null;
}

export const deliveryJson = (r: DeliveryRow): DeliveryJson => ({
  id: r.id,
  event_id: r.event_id,
  type: r.type,
  attempts: r.attempts,
  last_status_code: r.last_status_code,
  last_error: r.last_error,
  latency_ms: r.latency_ms,
  delivered_at: isoOrNull(r.delivered_at),
  next_attempt_at: isoOrNull(r.next_attempt_at),
});
