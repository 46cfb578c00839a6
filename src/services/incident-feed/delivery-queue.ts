import type { Knex } from '@mikro-orm/postgresql';

/**
 * The one delivery queue of every consumer of the incident-event feed (outgoing webhooks and the
 * chat integrations; docs/integrations.md, "The delivery queue"): `feed_deliveries`, one row per
 * event per target, delivered in order per lane (consumer, target, incident), each try leased so
 * any number of API processes may deliver and each row goes to one of them, retried on one
 * schedule and parked when it runs out. Lanes never cross consumers: each consumer claims only
 * its own rows.
 */
export const FEED_DELIVERIES = 'feed_deliveries';

/**
 * When a failed attempt is tried again, for every consumer: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and
 * 10 h after each failure (the schedule Standard Webhooks senders use), then it is parked.
 */
export const FEED_RETRY_SCHEDULE_MS: readonly number[] = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

/**
 * What follows a failed attempt (`attempts`: the row's count before it): tried again on the one
 * schedule, or parked once the schedule has run out, or at once when the consumer knows the
 * refusal is permanent (a 4xx a provider answers however often it is asked). A receiver's
 * Retry-After (`retryAfterMs`, capped by src/domain/retry-after.ts) can only make the wait longer.
 */
export function afterFailedAttempt(attempts: number, opts: { permanent?: boolean; retryAfterMs?: number } = {}): { retryInMs: number | null; park: boolean } {
  if (opts.permanent) return { retryInMs: null, park: true };
  const counted = attempts + 1;
  if (counted > FEED_RETRY_SCHEDULE_MS.length) return { retryInMs: null, park: true };
  return { retryInMs: Math.max(FEED_RETRY_SCHEDULE_MS[counted - 1], opts.retryAfterMs ?? 0), park: false };
}

/** One consumer's part of the queue. */
export interface DeliveryQueue {
  /** Its registry key, the rows' `consumer` ('outgoing-webhooks', 'slack', 'microsoft-teams', …). */
  consumer: string;
  /** Extra condition on a due row `c` (e.g. its target is enabled); SQL, no bindings. */
  eligible?: string;
  /**
   * Claims the rows of all these consumers (one feed consumer serving several registry keys: the
   * chat destinations, src/services/chat/chat-consumer.ts); `consumer` alone otherwise.
   */
  consumers?: readonly string[];
}

/** A row taken for one attempt. */
export interface DueDelivery {
  id: string;
  /** The registry key it is for. */
  consumer: string;
  target_id: string;
  event_id: string;
  incident_id: string | null;
  type: string;
  event: Record<string, unknown>;
  attempts: number;
}

/** How one attempt went. */
export interface AttemptOutcome {
  delivered: boolean;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  /** The receiver's Retry-After, when it sent one: the next try waits at least that (afterFailedAttempt). */
  retryAfterMs?: number;
}

/**
 * Leases up to `limit` due rows for `leaseMs`: oldest first, and only the first undelivered row
 * of each lane (a later event of an incident waits while an earlier one is retried). A lease
 * that runs out (its process died) makes the row due again: at-least-once.
 */
export async function claimDue(k: Knex, t: DeliveryQueue, opts: { limit: number; leaseMs: number }): Promise<DueDelivery[]> {
  const { rows } = (await k.raw(
    `update feed_deliveries d set leased_until = now() + ? * interval '1 millisecond'
     where d.id in (
       select c.id from feed_deliveries c
       where c.consumer = any(?::text[]) and c.delivered_at is null and c.parked_at is null
         and (c.next_attempt_at is null or c.next_attempt_at <= now())
         and (c.leased_until is null or c.leased_until < now())
         and not exists (
           select 1 from feed_deliveries b
           where b.consumer = c.consumer and b.target_id = c.target_id and b.incident_id is not distinct from c.incident_id and b.lane_seq < c.lane_seq
             and b.delivered_at is null and b.parked_at is null)
         ${t.eligible ? `and (${t.eligible})` : ''}
       order by c.lane_seq
       limit ?
       for update of c skip locked)
     returning d.id, d.consumer, d.target_id, d.event_id, d.incident_id, d.type, d.event, d.attempts, d.lane_seq`,
    [opts.leaseMs, t.consumers ?? [t.consumer], opts.limit],
  )) as { rows: Array<DueDelivery & { lane_seq: string }> };
  return rows.sort((a, b) => Number(BigInt(a.lane_seq) - BigInt(b.lane_seq))).map(({ lane_seq: _seq, ...row }) => row);
}

/**
 * Records an attempt: delivered, or failed and due again after `retryInMs`, or parked. Only the
 * lease holder's attempt counts: a row whose lease ran out and was taken again is left to the
 * new holder (`attempts` unchanged since the claim).
 */
export async function recordAttempt(
  k: Knex,
  t: DeliveryQueue,
  row: Pick<DueDelivery, 'id' | 'attempts'>,
  outcome: AttemptOutcome,
  next: { retryInMs: number | null; park: boolean },
): Promise<void> {
  await k.raw(
    `update feed_deliveries set attempts = attempts + 1, leased_until = null, last_status_code = ?, last_error = ?, latency_ms = ?,
       delivered_at = case when ? then now() end,
       parked_at = case when not ? and ? then now() end,
       next_attempt_at = case when not ? and ?::int is not null then now() + ?::int * interval '1 millisecond' end
     where id = ? and consumer = ? and attempts = ? and delivered_at is null`,
    [
      outcome.statusCode,
      outcome.error,
      Math.round(outcome.latencyMs),
      outcome.delivered,
      outcome.delivered,
      next.park,
      outcome.delivered,
      next.retryInMs,
      next.retryInMs,
      row.id,
      t.consumer,
      row.attempts,
    ],
  );
}

/** Gives up every undelivered row of a target (it was disabled by the system); returns how many. */
export async function parkTarget(k: Knex, t: DeliveryQueue, targetId: string, reason: string): Promise<number> {
  const res = (await k.raw(
    `update feed_deliveries set parked_at = now(), leased_until = null, last_error = coalesce(last_error, ?)
     where consumer = ? and target_id = ? and delivered_at is null and parked_at is null`,
    [reason, t.consumer, targetId],
  )) as { rowCount: number };
  return res.rowCount;
}

/**
 * Parks one row without an attempt, `skipped` when it was never worth sending (the plan has no
 * chat, the provider was disconnected), else given up quietly (its lane was given up before).
 */
export async function parkDelivery(k: Knex, t: DeliveryQueue, id: string, reason: string, opts: { skipped: boolean }): Promise<void> {
  await k(FEED_DELIVERIES)
    .where({ id, consumer: t.consumer })
    .whereNull('delivered_at')
    .update({ parked_at: k.fn.now(), leased_until: null, last_error: reason, ...(opts.skipped ? { skipped_at: k.fn.now() } : {}) });
}

/** What an earlier attempt of a row already posted (e.g. Slack's thread reply ts), if anything. */
export async function externalRefOf(k: Knex, t: DeliveryQueue, id: string): Promise<string | null> {
  const row = await k(FEED_DELIVERIES).where({ id, consumer: t.consumer }).first<{ external_ref: string | null } | undefined>('external_ref');
  return row?.external_ref ?? null;
}

/** Records what an attempt posted as soon as the provider answers: a retry does not post it again. */
export async function recordExternalRef(k: Knex, t: DeliveryQueue, id: string, ref: string): Promise<void> {
  await k(FEED_DELIVERIES).where({ id, consumer: t.consumer }).update({ external_ref: ref });
}
