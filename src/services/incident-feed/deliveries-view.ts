import type { Knex } from '@mikro-orm/postgresql';
import { FEED_DELIVERIES } from './delivery-queue';

/**
 * One view of every feed consumer's deliveries (docs/integrations.md, "The delivery queue"):
 * a workspace's rows of `feed_deliveries`, newest first, by consumer and status, a page at a
 * time. What it shows is the queue's own columns: never a URL nor a secret (a target is its id).
 */

export const FEED_DELIVERY_STATUSES = ['pending', 'delivered', 'parked'] as const;
export type FeedDeliveryStatus = (typeof FEED_DELIVERY_STATUSES)[number];

export interface FeedDeliveryQuery {
  consumer?: string;
  status?: FeedDeliveryStatus;
  /** The `next_cursor` of the page before: rows older than it. */
  cursor?: string;
  limit: number;
}

export interface FeedDeliveryJson {
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

interface Row {
  id: string;
  lane_seq: string;
  consumer: string;
  target_id: string;
  event_id: string;
  incident_id: string | null;
  type: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Date;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
  parked_at: Date | null;
  skipped_at: Date | null;
}

const iso = (d: Date | null): string | null => (d ? new Date(d).toISOString() : null);

/** A page of a workspace's feed deliveries, newest first; `next_cursor` is null on the last page. */
export async function listFeedDeliveries(
  k: Knex,
  organizationId: string,
  query: FeedDeliveryQuery,
): Promise<{ deliveries: FeedDeliveryJson[]; next_cursor: string | null }> {
  const q = k(FEED_DELIVERIES)
    .where({ organization_id: organizationId })
    .select(
      'id',
      'lane_seq',
      'consumer',
      'target_id',
      'event_id',
      'incident_id',
      'type',
      'attempts',
      'last_status_code',
      'last_error',
      'created_at',
      'next_attempt_at',
      'delivered_at',
      'parked_at',
      'skipped_at',
    )
    .orderBy('lane_seq', 'desc')
    .limit(query.limit + 1);
  if (query.consumer) q.where({ consumer: query.consumer });
  if (query.status === 'pending') q.whereNull('delivered_at').whereNull('parked_at');
  if (query.status === 'delivered') q.whereNotNull('delivered_at');
  if (query.status === 'parked') q.whereNotNull('parked_at').whereNull('delivered_at');
  if (query.cursor) q.where('lane_seq', '<', query.cursor);
  const rows = (await q) as Row[];
  const page = rows.slice(0, query.limit);
  return {
    deliveries: page.map((r) => ({
      id: r.id,
      consumer: r.consumer,
      target_id: r.target_id,
      event_id: r.event_id,
      incident_id: r.incident_id,
      type: r.type,
      status: r.delivered_at ? 'delivered' : r.parked_at ? 'parked' : 'pending',
      attempts: r.attempts,
      last_status_code: r.last_status_code,
      last_error: r.last_error,
      created_at: iso(r.created_at)!,
      next_attempt_at: r.delivered_at || r.parked_at ? null : iso(r.next_attempt_at),
      delivered_at: iso(r.delivered_at),
      parked_at: iso(r.parked_at),
      skipped: r.skipped_at !== null,
    })),
    next_cursor: rows.length > query.limit ? String(page[page.length - 1].lane_seq) : null,
  };
}
