/**
 * The one writer of Slack's rows of `feed_deliveries` (consumer `slack`, target the channel id;
 * docs/chat.md, "Slack messages"): the Slack consumer of the incident-event feed. The fan-out takes the feed and queues one row per event worth showing
 * for every incident whose service names a Slack channel, in a workspace with a Slack
 * installation and a plan with chat; the shared delivery queue (src/services/incident-feed/)
 * claims, retries and parks them in order per channel × incident.
 */
import type { Knex } from '@mikro-orm/postgresql';
import { PLAN_LIMITS, PLANS } from '../../../domain/plans';
import type { IncidentEventType } from '../../../domain/incident-events';
import {
  FEED_RECORDSET,
  feedRecords,
  externalRefOf,
  parkDelivery,
  recordExternalRef,
  takeFeedEvents,
  type DeliveryQueue,
} from '../../../services/incident-feed';

/** This consumer's name in `incident_event_consumers`. */
export const SLACK_FEED_CONSUMER = 'slack-messages';

/** Slack's part of the delivery queue: one lane per channel and incident. */
export const SLACK_DELIVERIES: DeliveryQueue = { consumer: 'slack' };

/**
 * The events a channel message follows: the status changes and escalations (an update and a
 * thread reply each), and delivered pages (an update only, when who is paged now changed).
 * Attached alerts and failed pages change nothing the message shows.
 */
export const SLACK_EVENT_TYPES: readonly IncidentEventType[] = [
  'incident.triggered',
  'incident.acknowledged',
  'incident.investigating',
  'incident.resolved',
  'incident.closed',
  'incident.reopened',
  'incident.escalated',
  'page.delivered',
  // A responder's actions (docs/responding.md): a thread reply each.
  'incident.note_added',
  'incident.snoozed',
  'incident.responders_added',
  'incident.reassigned',
  'incident.merged',
];

const CHAT_PLANS = PLANS.filter((plan) => PLAN_LIMITS[plan].chat);

/**
 * Takes the feed's next events and queues the ones worth showing, in the caller's transaction
 * with the feed position's move: for a service whose chat settings name a channel (set before
 * the event), in a workspace with a Slack installation and a plan with chat. Returns the events
 * taken.
 */
export async function fanOutSlackEvents(trx: Knex.Transaction, limit: number): Promise<number> {
  const events = await takeFeedEvents(trx, SLACK_FEED_CONSUMER, limit);
  const records = feedRecords(events, { types: SLACK_EVENT_TYPES, withService: true });
  if (records === '[]') return events.length;
  // lane_seq follows the insert's order: the feed's order, which is each incident's. Not what
  // happened before the channel was set (a consumer starting behind, or catching up).
  await trx.raw(
    `insert into feed_deliveries (id, consumer, target_id, organization_id, event_id, incident_id, type, event)
     select gen_random_uuid(), ?, s.settings->>'channel_id', e.organization_id, e.id, e.incident_id, e.type, e.body
     from json_to_recordset(?::json) as ${FEED_RECORDSET}
     join service_chat_destinations s on s.service_id = e.service_id and s.provider = 'slack' and s.organization_id = e.organization_id
       and s.updated_at <= e.created_at
     join organizations o on o.id = e.organization_id and o.plan = any(?::text[])
     where exists (select 1 from slack_installations si where si.organization_id = e.organization_id)
     order by e.ord`,
    [SLACK_DELIVERIES.consumer, records, CHAT_PLANS],
  );
  return events.length;
}

/** Parks a row without an attempt: Slack was disconnected or the plan lost chat since it was queued. */
export async function skipSlackDelivery(k: Knex, id: string, reason: string): Promise<void> {
  await parkDelivery(k, SLACK_DELIVERIES, id, reason, { skipped: true });
}

/**
 * Gives up every pending row of a workspace's channel (a permanent Slack error: the token was
 * revoked, the channel is gone, the bot left it); returns how many.
 */
export async function parkSlackChannel(k: Knex, where: { organizationId: string; channelId: string }, reason: string): Promise<number> {
  return k('feed_deliveries')
    .where({ consumer: SLACK_DELIVERIES.consumer, organization_id: where.organizationId, target_id: where.channelId })
    .whereNull('delivered_at')
    .whereNull('parked_at')
    .update({ parked_at: k.fn.now(), leased_until: null, last_error: k.raw('coalesce(last_error, ?)', [reason]) });
}

/**
 * Whether an earlier event of the row's lane (its incident in its channel) was given up for one
 * of `reasons` (a permanent Slack error): the lane's later events then go without a call.
 */
export async function laneGaveUp(k: Knex, row: { id: string; channelId: string; incidentId: string | null }, reasons: readonly string[]): Promise<boolean> {
  const found = await k('feed_deliveries')
    .where({ consumer: SLACK_DELIVERIES.consumer, target_id: row.channelId, incident_id: row.incidentId })
    .whereNull('skipped_at')
    .whereNot({ id: row.id })
    .whereNotNull('parked_at')
    .whereIn('last_error', [...reasons])
    .first('id');
  return found !== undefined;
}

/** Parks one row without an attempt (its lane was given up); quietly: the first one was logged. */
export async function parkSlackDelivery(k: Knex, id: string, reason: string): Promise<void> {
  await parkDelivery(k, SLACK_DELIVERIES, id, reason, { skipped: false });
}

/** The thread reply a row posted, if it did (a retried attempt does not reply again). */
export async function replyTsOf(k: Knex, id: string): Promise<string | null> {
  return externalRefOf(k, SLACK_DELIVERIES, id);
}

/** Records the thread reply's ts as soon as Slack answers. */
export async function recordReplyTs(k: Knex, id: string, ts: string): Promise<void> {
  await recordExternalRef(k, SLACK_DELIVERIES, id, ts);
}
