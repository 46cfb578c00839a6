import type { Knex } from '@mikro-orm/postgresql';
import { FEED_RECORDSET, feedRecords, takeFeedEvents } from '../incident-feed/feed';

/** This consumer's name in `incident_event_consumers`, and its registry key: its rows' `consumer` in `feed_deliveries`. */
export const FEED_CONSUMER = 'outgoing-webhooks';

/**
 * Takes the feed's next events and queues one delivery per event for every enabled subscription
 * of the workspace that wants it (its event types and services, or all), created before the
 * event. In the caller's transaction, with the feed position's move. Returns the events taken.
 */
export async function fanOutEvents(trx: Knex.Transaction, limit: number): Promise<number> {
  const events = await takeFeedEvents(trx, FEED_CONSUMER, limit);
  if (events.length === 0) return 0;
  // lane_seq follows the insert's order: the feed's order, which is each incident's.
  await trx.raw(
    `insert into feed_deliveries (id, consumer, target_id, organization_id, event_id, incident_id, type, event)
     select gen_random_uuid(), ?, w.id::text, e.organization_id, e.id, e.incident_id, e.type, e.body
     from json_to_recordset(?::json) as ${FEED_RECORDSET}
     join outgoing_webhooks w on w.organization_id = e.organization_id and w.enabled and w.created_at <= e.created_at
       and (w.event_types is null or jsonb_exists(w.event_types, e.type))
       and (w.service_ids is null or jsonb_array_length(w.service_ids) = 0 or jsonb_exists(w.service_ids, e.service_id::text))
     order by e.ord, w.id`,
    [FEED_CONSUMER, feedRecords(events)],
  );
  return events.length;
}
