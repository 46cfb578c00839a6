import type { Knex } from '@mikro-orm/postgresql';

/**
 * The delivery rows of one consumer of the incident-event feed (outgoing webhooks now, chat
 * next): one row per event per target, delivered in order per (target, incident) lane, each try
 * leased so any number of API processes may deliver and each row goes to one of them, retried on
 * the consumer's schedule and parked when it runs out (docs/integrations.md). The table has the
 * columns of `outgoing_webhook_deliveries`; `target` names its target column.
 */
export interface DeliveryTable {
  table: string;
  target: string;
  /** Extra condition on a due row `c` (e.g. its target is enabled); SQL, no bindings. */
  eligible?: string;
}

/** A row taken for one attempt. */
export interface DueDelivery {
  id: string;
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
}

/**
 * Leases up to `limit` due rows for `leaseMs`: oldest first, and only the first undelivered row
 * of each lane (a later event of an incident waits while an earlier one is retried). A lease
 * that runs out (its process died) makes the row due again: at-least-once.
 */
export async function claimDue(k: Knex, t: DeliveryTable, opts: { limit: number; leaseMs: number }): Promise<DueDelivery[]> {
  const { rows } = (await k.raw(
    `update ${t.table} d set leased_until = now() + ? * interval '1 millisecond'
     where d.id in (
       select c.id from ${t.table} c
       where c.delivered_at is null and c.parked_at is null
         and (c.next_attempt_at is null or c.next_attempt_at <= now())
         and (c.leased_until is null or c.leased_until < now())
         and not exists (
           select 1 from ${t.table} b
           where b.${t.target} = c.${t.target} and b.incident_id is not distinct from c.incident_id and b.lane_seq < c.lane_seq
             and b.delivered_at is null and b.parked_at is null)
         ${t.eligible ? `and (${t.eligible})` : ''}
       order by c.lane_seq
       limit ?
       for update of c skip locked)
     returning d.id, d.${t.target} as target_id, d.event_id, d.incident_id, d.type, d.event, d.attempts, d.lane_seq`,
    [opts.leaseMs, opts.limit],
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
  t: DeliveryTable,
  row: Pick<DueDelivery, 'id' | 'attempts'>,
  outcome: AttemptOutcome,
  next: { retryInMs: number | null; park: boolean },
): Promise<void> {
  await k.raw(
    `update ${t.table} set attempts = attempts + 1, leased_until = null, last_status_code = ?, last_error = ?, latency_ms = ?,
       delivered_at = case when ? then now() end,
       parked_at = case when not ? and ? then now() end,
       next_attempt_at = case when not ? and ?::int is not null then now() + ?::int * interval '1 millisecond' end
     where id = ? and attempts = ? and delivered_at is null`,
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
      row.attempts,
    ],
  );
}

/** Gives up every undelivered row of a target (it was disabled by the system); returns how many. */
export async function parkTarget(k: Knex, t: DeliveryTable, targetId: string, reason: string): Promise<number> {
  const res = (await k.raw(
    `update ${t.table} set parked_at = now(), leased_until = null, last_error = coalesce(last_error, ?) where ${t.target} = ? and delivered_at is null and parked_at is null`,
    [reason, targetId],
  )) as { rowCount: number };
  return res.rowCount;
}
