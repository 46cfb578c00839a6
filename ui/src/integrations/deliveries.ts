/**
 * The deliveries view (docs/integrations.md, "The delivery queue"): every feed consumer's
 * deliveries from `GET /api/deliveries`, by consumer and status, a page at a time.
 */

export const DELIVERIES_STATUSES = ['pending', 'delivered', 'parked'] as const;
export type FeedDeliveryStatus = (typeof DELIVERIES_STATUSES)[number];

export interface FeedDelivery {
  id: string;
  consumer: string;
  target_id: string;
  event_id: string;
  incident_id: string | null;
  type: string;
  status: FeedDeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  next_attempt_at: string | null;
  delivered_at: string | null;
  parked_at: string | null;
  skipped: boolean;
}

/** The consumers a filter offers, by key, with the names people know them by. */
export const CONSUMER_LABELS: Record<string, string> = {
  'outgoing-webhooks': 'Outgoing webhooks',
  slack: 'Slack',
  'microsoft-teams': 'Microsoft Teams',
};

export const consumerLabel = (key: string): string => CONSUMER_LABELS[key] ?? key;

export const DELIVERY_STATUS_COLORS: Record<FeedDeliveryStatus, string> = { delivered: 'green', pending: 'yellow', parked: 'red' };

/** The query string of one page: the filters, and the cursor of the page before. */
export function deliveriesPath(filters: { consumer: string | null; status: string | null }, cursor: string | null): string {
  const params = new URLSearchParams();
  if (filters.consumer) params.set('consumer', filters.consumer);
  if (filters.status) params.set('status', filters.status);
  if (cursor) params.set('cursor', cursor);
  params.set('limit', '50');
  return `/deliveries?${params.toString()}`;
}

/** What a row's status says in words: skipped rows are parked without an attempt. */
export function statusLabel(d: FeedDelivery): string {
  if (d.status === 'parked' && d.skipped) return 'skipped';
  if (d.status === 'pending' && d.attempts > 0) return 'retrying';
  return d.status;
}
