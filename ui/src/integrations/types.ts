/** An outgoing webhook as /api/outgoing-webhooks answers it (docs/api/outgoing-webhooks.md). */
export interface OutgoingWebhook {
  id: string;
  url: string;
  description: string | null;
  /** Every type when it takes all. */
  event_types: string[];
  /** [] when it takes every service. */
  service_ids: string[];
  enabled: boolean;
  created_at: string;
}

/** The create answer: the subscription and its signing secret, shown once. */
export interface NewOutgoingWebhook extends OutgoingWebhook {
  secret: string;
}

export interface Delivery {
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
