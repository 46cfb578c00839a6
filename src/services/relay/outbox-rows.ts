import type { Knex } from '@mikro-orm/postgresql';
import type { IncidentWorkflowInput } from '../../contracts/workflows';
import type { AfterFailure } from './retry-policy';

/** An undelivered `ingest_outbox` row with what its incident's workflow needs to start. */
export interface PendingRow {
  id: string;
  event_id: string;
  kind: 'opened' | 'attached' | 'resolved' | 'acknowledged';
  /** For a resolve: the incident's last seq when it was accepted. */
  incident_seq: number | null;
  /** For a sender's acknowledge: how it asked, for the timeline (`via PagerDuty Events API`). */
  detail: string | null;
  /** Failed deliveries counted so far (outages do not count). */
  attempts: number;
  incident_id: string;
  organization_id: string;
  service_id: string | null;
  severity: IncidentWorkflowInput['severity'];
  status: IncidentWorkflowInput['status'];
  last_seq: number;
  title: string;
}

/** A row whose delivery failed, with its error and what the retry policy made of it. */
export interface FailedRow extends AfterFailure {
  id: string;
  error: string;
}

/** Marks rows delivered. */
export async function markDelivered(trx: Knex.Transaction, ids: string[]): Promise<void> {
  await trx('ingest_outbox').whereIn('id', ids).update({ delivered_at: new Date() });
}

/**
 * Records failed deliveries in one statement: error, attempts, when each may be retried, and
 * parking. Times are the clock's at the write (not the transaction's start, which precedes the
 * signals the pass waited for).
 */
export async function recordFailures(trx: Knex.Transaction, rows: FailedRow[]): Promise<void> {
  await trx.raw(
    `update ingest_outbox o set
       last_error = f.error,
       attempts = f.attempts,
       next_attempt_at = case when f.park then null
                              when f.retry_in_ms is null then o.next_attempt_at
                              else clock_timestamp() + f.retry_in_ms * interval '1 millisecond' end,
       parked_at = case when f.park then clock_timestamp() end
     from jsonb_to_recordset(?::jsonb) as f(id uuid, error text, attempts int, retry_in_ms int, park bool)
     where o.id = f.id`,
    [JSON.stringify(rows.map((r) => ({ id: r.id, error: r.error, attempts: r.attempts, retry_in_ms: r.retryInMs, park: r.park })))],
  );
}
