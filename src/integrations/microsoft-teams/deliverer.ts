import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import { incidentCard, isTeamsEventType, offeredActions, TEAMS_EVENT_TYPES } from './card';
import type { IncidentEventBody } from '../../domain/incident-events';
import { PLAN_LIMITS } from '../../domain/plans';
import type { Logger } from '../../logger';
import { getServiceChat } from '../../services/chat/service-chat';
import { fanOutTeamsEvents, planOfWorkspace, SKIPPED_NO_CHAT, skipTeamsDelivery, TEAMS_DELIVERIES, teamsCardContext } from './deliveries';
import { FeedQueueConsumer, recordAttempt, type AttemptOutcome, type DueDelivery } from '../../services/incident-feed';
import { afterScheduledFailure } from '../../services/relay/retry-policy';
import { signIncidentAction } from '../../services/response/action-tokens';
import type { Sealer } from '../../services/sealing/seal';
import type { PostJson } from '../outgoing-webhooks';
import { ATTEMPT_TIMEOUT_MS, RETRY_SCHEDULE_MS } from '../outgoing-webhooks/schedule';
import { isPermanentRefusal } from './chat';

export interface TeamsDelivererDeps {
  orm: MikroORM;
  sealer: Sealer;
  post: PostJson;
  logger: Logger;
  /** The dashboard's URL: "Open in Klaxon", and the action links under /hooks/teams/action. */
  appUrl: string;
  /** Signs the Acknowledge and Resolve links (KLAXON_SECRET) and how long they work (PAGE_LINK_TTL_HOURS). */
  actionLinks: { secret: string; ttlSeconds: number };
}

/** Deliveries attempted at once. */
const CLAIM_ROWS = 32;
/** Longer than an attempt can take: a live process never loses its lease. */
const LEASE_MS = ATTEMPT_TIMEOUT_MS * 3;


/**
 * Posts Microsoft Teams cards from the incident-event feed, in every API process: each pass moves
 * new events of services with a Teams URL into deliveries, then posts what is due, in order per
 * service and incident, retried on the outgoing webhooks' schedule and parked when it runs out or
 * Teams refuses for good. Paging never waits for it: it shares nothing with the paging path but
 * the database. The URL is a credential: it is never logged nor recorded.
 */
export class TeamsDeliverer extends FeedQueueConsumer {
  constructor(private readonly deps: TeamsDelivererDeps) {
    super({ name: 'Microsoft Teams delivery', orm: deps.orm, logger: deps.logger, queue: TEAMS_DELIVERIES, claimRows: CLAIM_ROWS, leaseMs: LEASE_MS });
  }

  protected fanOut(trx: Knex.Transaction, limit: number): Promise<number> {
    return fanOutTeamsEvents(trx, limit, TEAMS_EVENT_TYPES);
  }

  /** One attempt of one delivery, and what follows from it. */
  protected async attempt(row: DueDelivery): Promise<void> {
    const knex = knexOf(this.deps.orm);
    const event = row.event as unknown as IncidentEventBody;
    const plan = await planOfWorkspace(knex, event.organization_id);
    if (!plan || !PLAN_LIMITS[plan].chat) return skipTeamsDelivery(knex, row.id, SKIPPED_NO_CHAT);
    const { teamsWebhookUrl } = await getServiceChat(this.deps.orm, this.deps.sealer, row.target_id);
    if (!teamsWebhookUrl) {
      const gone: AttemptOutcome = { delivered: false, statusCode: null, error: 'the service has no Microsoft Teams webhook URL now', latencyMs: 0 };
      return recordAttempt(knex, TEAMS_DELIVERIES, row, gone, { retryInMs: null, park: true });
    }
    const outcome = await this.send(teamsWebhookUrl, row, event);
    const next = outcome.delivered
      ? { retryInMs: null, park: false }
      : isPermanentRefusal(outcome.statusCode)
        ? { retryInMs: null, park: true }
        : afterScheduledFailure(row.attempts, RETRY_SCHEDULE_MS);
    await recordAttempt(knex, TEAMS_DELIVERIES, row, outcome, next);
    if (!outcome.delivered && next.park) {
      this.deps.logger.warn(
        { service_id: row.target_id, event_id: row.event_id, status: outcome.statusCode, error: outcome.error },
        'a Microsoft Teams card was given up',
      );
    }
  }

  private async send(url: string, row: DueDelivery, event: IncidentEventBody): Promise<AttemptOutcome> {
    if (!event.incident || !isTeamsEventType(row.type)) return { delivered: false, statusCode: null, error: `not a card event (${row.type})`, latencyMs: 0 };
    const context = await teamsCardContext(knexOf(this.deps.orm), row.target_id, row.incident_id);
    const body = JSON.stringify(
      incidentCard({
        type: row.type,
        incident: event.incident,
        ...context,
        actorName: event.actor?.name ?? null,
        stepNumber: typeof event.data.step_number === 'number' ? event.data.step_number : null,
        operation: typeof event.data.operation === 'string' ? event.data.operation : null,
        at: event.created_at,
        links: this.links(event.incident.id, event.incident.status),
      }),
    );
    const res = await this.deps.post(url, { headers: { 'User-Agent': 'Klaxon-Teams/1' }, body, timeoutMs: ATTEMPT_TIMEOUT_MS });
    const delivered = res.status !== null && res.status >= 200 && res.status < 300;
    return { delivered, statusCode: res.status, error: delivered ? null : (res.error ?? `answered ${res.status}`), latencyMs: res.latencyMs };
  }

  /** The card's links: the incident's page, and signed action links for the moves its status still allows. */
  private links(incidentId: string, status: string) {
    const { appUrl, actionLinks } = this.deps;
    const expiresAt = Math.floor(Date.now() / 1000) + actionLinks.ttlSeconds;
    const link = (action: 'acknowledge' | 'resolve') =>
      `${appUrl}/hooks/teams/action/${signIncidentAction(actionLinks.secret, { incidentId, action, expiresAt })}`;
    const offered = offeredActions(status);
    return {
      incident: `${appUrl}/incidents/${incidentId}`,
      acknowledge: offered.acknowledge ? link('acknowledge') : null,
      resolve: offered.resolve ? link('resolve') : null,
    };
  }
}
