/**
 * Microsoft Teams cards (docs/chat.md, "Microsoft Teams"): the one owner of Teams' rows of
 * `feed_deliveries` (consumer `microsoft-teams`, target the service id; attempt columns are written
 * through the feed's delivery queue, src/services/incident-feed).
 * Queues one delivery per card-worthy event of a service that has a Teams URL, records what is
 * skipped, and reads what a card shows. Sending is the provider's (src/integrations/microsoft-teams/).
 */
import type { Knex } from '@mikro-orm/postgresql';
import { PLAN_LIMITS, PLANS, type Plan } from '../../domain/plans';
import { parkDelivery, type DeliveryQueue } from '../../services/incident-feed/delivery-queue';
import { FEED_RECORDSET, feedRecords, takeFeedEvents } from '../../services/incident-feed/feed';

/** This consumer's name in `incident_event_consumers`. */
export const TEAMS_FEED_CONSUMER = 'microsoft-teams';

/** The Teams deliveries as the delivery queue sees them: one lane per service and incident. */
export const TEAMS_DELIVERIES: DeliveryQueue = { consumer: 'microsoft-teams' };

/** Plans without chat: their workspaces' events are recorded skipped, never sent. */
export const PLANS_WITHOUT_CHAT: readonly Plan[] = PLANS.filter((p) => !PLAN_LIMITS[p].chat);

/** The error a skipped delivery records. */
export const SKIPPED_NO_CHAT = 'skipped: the workspace’s plan does not include chat';

/**
 * Takes the feed's next events and queues one delivery per event of `types` whose service has a
 * Teams URL; a workspace whose plan has no chat gets its rows recorded skipped. In the caller's
 * transaction, with the feed position's move. Returns the events taken (of every type).
 */
export async function fanOutTeamsEvents(trx: Knex.Transaction, limit: number, types: readonly string[]): Promise<number> {
  const events = await takeFeedEvents(trx, TEAMS_FEED_CONSUMER, limit);
  const records = feedRecords(events, { types, withService: true });
  if (records === '[]') return events.length;
  // lane_seq follows the insert's order: the feed's order, which is each incident's.
  await trx.raw(
    `insert into feed_deliveries (id, consumer, target_id, organization_id, event_id, incident_id, type, event, parked_at, skipped_at, last_error)
     select gen_random_uuid(), ?, s.service_id::text, e.organization_id, e.id, e.incident_id, e.type, e.body,
       case when o.plan = any(?::text[]) then now() end, case when o.plan = any(?::text[]) then now() end, case when o.plan = any(?::text[]) then ? end
     from json_to_recordset(?::json) as ${FEED_RECORDSET}
     join service_chat_destinations s on s.service_id = e.service_id and s.provider = 'microsoft-teams' and s.organization_id = e.organization_id
     join organizations o on o.id = e.organization_id
     order by e.ord`,
    [TEAMS_DELIVERIES.consumer, PLANS_WITHOUT_CHAT, PLANS_WITHOUT_CHAT, PLANS_WITHOUT_CHAT, SKIPPED_NO_CHAT, records],
  );
  return events.length;
}

/** Records a delivery skipped (the workspace's plan lost chat while it waited): parked, never sent. */
export async function skipTeamsDelivery(k: Knex, id: string, reason: string): Promise<void> {
  await parkDelivery(k, TEAMS_DELIVERIES, id, reason, { skipped: true });
}

/** A workspace's plan (undefined: no such workspace). */
export async function planOfWorkspace(k: Knex, organizationId: string): Promise<Plan | undefined> {
  const row = await k('organizations').where({ id: organizationId }).first<{ plan: Plan } | undefined>('plan');
  return row?.plan;
}

/** What a card shows beyond the event: the service's name and policy, who the latest paging decision paged. */
export interface TeamsCardContext {
  serviceName: string | null;
  policyName: string | null;
  paging: { stepNumber: number; people: string[] } | null;
}

/** Reads a card's context: one row for the service, one for the incident's latest paging decision. */
export async function teamsCardContext(k: Knex, serviceId: string, incidentId: string | null): Promise<TeamsCardContext> {
  const service = await k('services as s')
    .leftJoin('escalation_policies as p', 'p.id', 's.escalation_policy_id')
    .where('s.id', serviceId)
    .first<{ name: string; policy_name: string | null } | undefined>('s.name', 'p.name as policy_name');
  const decision = incidentId
    ? await k('timeline_entries')
        .where({ incident_id: incidentId, type: 'paging_decision' })
        .orderBy('seq', 'desc')
        .first<{ data: { step_number?: number; paged?: Array<{ email?: string }> } | null } | undefined>('data')
    : undefined;
  const people = (decision?.data?.paged ?? []).map((p) => p.email).filter((e): e is string => typeof e === 'string');
  return {
    serviceName: service?.name ?? null,
    policyName: service?.policy_name ?? null,
    paging: decision?.data ? { stepNumber: decision.data.step_number ?? 1, people } : null,
  };
}
