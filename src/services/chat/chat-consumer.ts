/**
 * The one consumer of the incident-event feed for chat destinations set per service
 * (docs/chat.md, "How chat messages are delivered"): every provider whose `chat` declares
 * `deliver` (Microsoft Teams, Discord, Mattermost, …); Slack declares none and keeps its own deliverer.
 * Each pass moves new feed events into `feed_deliveries`, one row per event and per destination
 * of the event's service whose provider posts that event type (consumer = the provider's registry
 * key, target = the service), then attempts what is due: the destination's settings opened, the
 * message's context read, one-use action links signed, and the provider's `deliver` called. A
 * `permanent` answer parks the row at once; any other failure is retried on the one schedule and
 * parked when it runs out. Imports no provider: they are given (src/integrations/registry.ts).
 */
import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import type { IncidentEventBody } from '../../domain/incident-events';
import { PLAN_LIMITS, PLANS, type Plan } from '../../domain/plans';
import type { Logger } from '../../logger';
import type { ChatActionLinks, ChatAttempt, ChatDeliverDeps, PostedChatDestination } from '../../integrations/types';
import { FEED_RECORDSET, feedRecords, takeFeedEvents } from '../incident-feed/feed';
import { afterFailedAttempt, parkDelivery, recordAttempt, type DeliveryQueue, type DueDelivery } from '../incident-feed/delivery-queue';
import { FeedQueueConsumer } from '../incident-feed/queue-consumer';
import { signChatAction } from '../response/action-tokens';
import type { Sealer } from '../sealing/seal';
import { chatMessageContext } from './message-context';
import { getDestination } from './service-chat';

/** This consumer's position in `incident_event_consumers`. */
export const CHAT_FEED_CONSUMER = 'chat';

/** Plans without chat: their workspaces' events are recorded skipped, never sent. */
const PLANS_WITHOUT_CHAT: readonly Plan[] = PLANS.filter((p) => !PLAN_LIMITS[p].chat);

/** The error a skipped delivery records. */
export const SKIPPED_NO_CHAT = 'skipped: the workspace’s plan does not include chat';

/** Deliveries attempted at once. */
const CLAIM_ROWS = 32;

export interface ChatConsumerDeps {
  orm: MikroORM;
  sealer: Sealer;
  logger: Logger;
  appUrl: string;
  /** Signing action links (KLAXON_SECRET) and how long they work (PAGE_LINK_TTL_HOURS). */
  actionLinks: { secret: string; ttlSeconds: number };
  /** The registry's chat providers that declare `deliver` (src/integrations/wiring.ts, `postedChatProviders`): Slack left out. */
  providers: ReadonlyArray<{ key: string; chat: PostedChatDestination }>;
  /** POSTs through the bounded client and the SSRF guard. */
  post: ChatDeliverDeps['post'];
  /** How long an attempt may take (the one retry schedule is the queue's, afterFailedAttempt). */
  attemptTimeoutMs: number;
  notify: ChatDeliverDeps['notify'];
  /** The path the action links open (default /hooks/chat/action). */
  actionPath?: string;
}

/** The action links of a message: the incident's page, one-use signed links for the moves its status allows. */
function links(deps: ChatConsumerDeps, incident: { id: string; status: string }, sign: (a: 'acknowledge' | 'resolve') => string): ChatActionLinks {
  const acknowledge = incident.status === 'TRIGGERED';
  const resolve = acknowledge || incident.status === 'ACKNOWLEDGED' || incident.status === 'INVESTIGATING';
  const url = (action: 'acknowledge' | 'resolve') => `${deps.appUrl}${deps.actionPath ?? '/hooks/chat/action'}/${sign(action)}`;
  return {
    incident: `${deps.appUrl}/incidents/${incident.id}`,
    acknowledge: acknowledge ? url('acknowledge') : null,
    resolve: resolve ? url('resolve') : null,
  };
}

export class ChatDestinationsConsumer extends FeedQueueConsumer {
  private readonly byKey: Map<string, PostedChatDestination>;

  constructor(private readonly deps: ChatConsumerDeps) {
    const keys = deps.providers.map((p) => p.key);
    super({
      name: 'chat delivery',
      orm: deps.orm,
      logger: deps.logger,
      queue: { consumer: keys[0] ?? CHAT_FEED_CONSUMER, consumers: keys },
      claimRows: CLAIM_ROWS,
      leaseMs: deps.attemptTimeoutMs * 3,
    });
    this.byKey = new Map(deps.providers.map((p) => [p.key, p.chat]));
  }

  /**
   * Takes the feed's next events and queues one row per event and destination whose provider posts
   * its type, set before the event (a destination added later does not get the past); a workspace
   * whose plan has no chat gets its rows recorded skipped. In the caller's transaction, with the
   * feed position's move.
   */
  protected async fanOut(trx: Knex.Transaction, limit: number): Promise<number> {
    const events = await takeFeedEvents(trx, CHAT_FEED_CONSUMER, limit);
    const types = [...new Set(this.deps.providers.flatMap((p) => p.chat.eventTypes))];
    const records = feedRecords(events, { types, withService: true });
    if (records === '[]') return events.length;
    const posts = JSON.stringify(this.deps.providers.flatMap((p) => p.chat.eventTypes.map((type) => ({ provider: p.key, type }))));
    // lane_seq follows the insert's order: the feed's order, which is each incident's.
    await trx.raw(
      `insert into feed_deliveries (id, consumer, target_id, organization_id, event_id, incident_id, type, event, parked_at, skipped_at, last_error)
       select gen_random_uuid(), s.provider, s.service_id::text, e.organization_id, e.id, e.incident_id, e.type, e.body,
         case when o.plan = any(?::text[]) then now() end, case when o.plan = any(?::text[]) then now() end, case when o.plan = any(?::text[]) then ? end
       from json_to_recordset(?::json) as ${FEED_RECORDSET}
       join service_chat_destinations s on s.service_id = e.service_id and s.organization_id = e.organization_id and s.created_at <= e.created_at
       join json_to_recordset(?::json) as p(provider text, type text) on p.provider = s.provider and p.type = e.type
       join organizations o on o.id = e.organization_id
       order by e.ord, s.provider`,
      [PLANS_WITHOUT_CHAT, PLANS_WITHOUT_CHAT, PLANS_WITHOUT_CHAT, SKIPPED_NO_CHAT, records, posts],
    );
    return events.length;
  }

  /** One attempt of one delivery, and what follows from it. */
  protected async attempt(row: DueDelivery): Promise<void> {
    const knex = knexOf(this.deps.orm);
    const queue: DeliveryQueue = { consumer: row.consumer };
    const chat = this.byKey.get(row.consumer);
    const event = row.event as unknown as IncidentEventBody;
    const org = await knex('organizations').where({ id: event.organization_id }).first<{ plan: Plan } | undefined>('plan');
    if (!org || !PLAN_LIMITS[org.plan].chat) return parkDelivery(knex, queue, row.id, SKIPPED_NO_CHAT, { skipped: true });
    const stored = chat ? await getDestination(this.deps.orm, this.deps.sealer, row.target_id, row.consumer) : undefined;
    const settings = stored && chat ? chat.settings.safeParse(stored.settings) : undefined;
    if (!chat || !settings?.success || !event.incident) {
      const why = !chat ? 'the provider is no longer installed' : !event.incident ? 'the event has no incident' : 'the service has no such destination now';
      return recordAttempt(knex, queue, row, { delivered: false, statusCode: null, error: why, latencyMs: 0 }, { retryInMs: null, park: true });
    }
    const { secret, ttlSeconds } = this.deps.actionLinks;
    const incident = event.incident;
    const sign = (action: 'acknowledge' | 'resolve') =>
      signChatAction(secret, { incidentId: incident.id, action, expiresAt: Math.floor(Date.now() / 1000) + ttlSeconds, provider: row.consumer });
    let outcome: ChatAttempt;
    try {
      outcome = await chat.deliver(
        {
          settings: settings.data,
          serviceId: row.target_id,
          type: row.type,
          event,
          incident,
          attempts: row.attempts,
          context: await chatMessageContext(knex, row.target_id, row.incident_id),
          links: links(this.deps, incident, sign),
          signAction: sign,
        },
        { post: this.deps.post, appUrl: this.deps.appUrl, logger: this.deps.logger, orm: this.deps.orm, sealer: this.deps.sealer, notify: this.deps.notify },
      );
    } catch (err) {
      outcome = { delivered: false, statusCode: null, error: `the ${row.consumer} renderer failed: ${(err as Error).message}`, latencyMs: 0 };
    }
    const next = outcome.delivered
      ? { retryInMs: null, park: false }
      : afterFailedAttempt(row.attempts, { permanent: outcome.permanent, retryAfterMs: outcome.retryAfterMs });
    await recordAttempt(knex, queue, row, outcome, next);
    if (!outcome.delivered && next.park) {
      // Never the settings: a webhook URL is its own credential.
      this.deps.logger.warn(
        { provider: row.consumer, service_id: row.target_id, event_id: row.event_id, status: outcome.statusCode, error: outcome.error },
        'a chat message was given up',
      );
    }
  }
}
