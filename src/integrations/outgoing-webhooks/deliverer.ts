import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import type { Logger } from '../../logger';
import type { AccountMailer } from '../../services/accounts/mailer';
import {
  afterFailedAttempt,
  FeedQueueConsumer,
  parkTarget,
  recordAttempt,
  type AttemptOutcome,
  type DeliveryQueue,
  type DueDelivery,
} from '../../services/incident-feed';
import type { Sealer } from '../../services/sealing/seal';
import { adminEmails, disableBySystem, FEED_CONSUMER, fanOutEvents, markFailing, markSucceeded } from '../../services/outgoing-webhooks';
import { ATTEMPT_TIMEOUT_MS, FAILING_DISABLES_AFTER_MS, GONE_STATUS } from './schedule';
import { signedHeaders } from './signature';

/** One POST to a receiver: no redirect followed, every address it resolves to checked. */
export type PostJson = (
  url: string,
  opts: { headers: Record<string, string>; body: string; timeoutMs: number },
) => Promise<{ status: number | null; latencyMs: number; error: string | null; retryAfterMs?: number }>;

export interface DelivererDeps {
  orm: MikroORM;
  sealer: Sealer;
  post: PostJson;
  logger: Logger;
  /** Emails a disabled subscription's workspace admins; absent in tools. */
  mailer?: AccountMailer;
  appUrl: string;
}

export const DELIVERIES: DeliveryQueue = {
  consumer: FEED_CONSUMER,
  // A disabled subscription's events wait (enabling it again delivers them); its test pings go.
  // The target as a uuid (the primary key's index), cast only on this consumer's rows: others' targets are not uuids.
  eligible: `c.type = 'ping' or exists (select 1 from outgoing_webhooks w
    where w.id = (case when c.consumer = '${FEED_CONSUMER}' then c.target_id::uuid end) and w.enabled)`,
};

/** Deliveries attempted at once. */
const CLAIM_ROWS = 64;
/** Longer than an attempt can take: a live process never loses its lease. */
const LEASE_MS = ATTEMPT_TIMEOUT_MS * 3;

/**
 * Delivers the incident-event feed to outgoing webhooks, in every API process: each pass moves
 * new events into deliveries, then attempts what is due, signed, in order per incident and
 * subscription; a 410 disables the subscription at once, three days of failures too, and its
 * admins are emailed. Paging never waits for it: it shares nothing with the paging path but the
 * database.
 */
export class OutgoingWebhookDeliverer extends FeedQueueConsumer {
  constructor(private readonly deps: DelivererDeps) {
    super({ name: 'outgoing webhook delivery', orm: deps.orm, logger: deps.logger, queue: DELIVERIES, claimRows: CLAIM_ROWS, leaseMs: LEASE_MS });
  }

  protected fanOut(trx: Knex.Transaction, limit: number): Promise<number> {
    return fanOutEvents(trx, limit);
  }

  /** One attempt of one delivery, and what follows from it. */
  protected async attempt(row: DueDelivery): Promise<void> {
    const knex = knexOf(this.deps.orm);
    const hook = await knex('outgoing_webhooks').where({ id: row.target_id }).first('id', 'organization_id', 'url', 'secret_sealed', 'description');
    const secret = hook && this.deps.sealer.open(hook.secret_sealed);
    const outcome: AttemptOutcome = !hook
      ? { delivered: false, statusCode: null, error: 'the subscription was deleted', latencyMs: 0 }
      : !secret
        ? { delivered: false, statusCode: null, error: 'the signing secret cannot be opened (KLAXON_SECRET changed)', latencyMs: 0 }
        : await this.send(hook.url, secret, row);
    const next = outcome.delivered ? { retryInMs: null, park: false } : afterFailedAttempt(row.attempts, { retryAfterMs: outcome.retryAfterMs });
    await recordAttempt(knex, DELIVERIES, row, outcome, !hook ? { retryInMs: null, park: true } : next);
    if (!hook || row.type === 'ping') return;
    if (outcome.delivered) return markSucceeded(knex, hook.id);
    if (outcome.statusCode === GONE_STATUS) return this.disable(hook, 'gone', `it answered ${GONE_STATUS} Gone`);
    const failingSince = await markFailing(knex, hook.id);
    if (failingSince && Date.now() - failingSince.getTime() >= FAILING_DISABLES_AFTER_MS) {
      await this.disable(hook, 'failing', 'its deliveries have failed for 3 days');
    }
  }

  private async send(url: string, secret: string, row: DueDelivery): Promise<AttemptOutcome> {
    const body = JSON.stringify(row.event);
    const headers = { 'content-type': 'application/json', 'user-agent': 'Klaxon-Webhooks/1', ...signedHeaders(secret, row.event_id, body, new Date()) };
    const res = await this.deps.post(url, { headers, body, timeoutMs: ATTEMPT_TIMEOUT_MS });
    const delivered = res.status !== null && res.status >= 200 && res.status < 300;
    return {
      delivered,
      statusCode: res.status,
      error: delivered ? null : (res.error ?? `answered ${res.status}`),
      latencyMs: res.latencyMs,
      ...(res.retryAfterMs !== undefined && { retryAfterMs: res.retryAfterMs }),
    };
  }

  /** Disables a subscription the system gave up on, gives up its pending deliveries, tells its admins. */
  private async disable(
    hook: { id: string; organization_id: string; url: string; description: string | null },
    reason: 'gone' | 'failing',
    why: string,
  ): Promise<void> {
    const knex = knexOf(this.deps.orm);
    if (!(await disableBySystem(knex, hook.id, reason))) return;
    const parked = await parkTarget(knex, DELIVERIES, hook.id, `subscription disabled: ${why}`);
    this.deps.logger.warn({ outgoing_webhook_id: hook.id, organization_id: hook.organization_id, reason, parked }, 'outgoing webhook disabled');
    await this.emailAdmins(hook, why).catch((err) =>
      this.deps.logger.error({ err, outgoing_webhook_id: hook.id }, 'the disabled outgoing webhook email could not be sent'),
    );
  }

  private async emailAdmins(hook: { id: string; organization_id: string; url: string; description: string | null }, why: string): Promise<void> {
    if (!this.deps.mailer) return;
    const admins = await adminEmails(knexOf(this.deps.orm), hook.organization_id);
    const name = hook.description ? `"${hook.description}" (${originOf(hook.url)})` : originOf(hook.url);
    for (const to of admins) {
      await this.deps.mailer.send({
        to,
        subject: `Klaxon: outgoing webhook to ${originOf(hook.url)} disabled`,
        text: `The outgoing webhook ${name} was disabled because ${why}. Events are no longer sent to it.\n\nCheck the receiver, then enable it again under Settings → Outgoing webhooks: ${this.deps.appUrl}/settings/outgoing-webhooks`,
      });
    }
  }
}

/** A URL's scheme and host only: its path or query may hold a receiver's token. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'an endpoint';
  }
}
