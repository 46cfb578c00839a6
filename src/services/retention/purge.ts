import type { Knex } from '@mikro-orm/postgresql';
import { noPurgeCounts, stillPurgeableBefore, type PurgeCounts, type PurgedTable, type RetentionCutoffs } from '../../domain/retention';

/** Rows one statement deletes at most: a backlog never holds a lock (or a transaction) for long. */
export const PURGE_BATCH_ROWS = 1000;
/** Incidents taken per round: their rows of every table go first, then the incidents. */
const INCIDENTS_PER_ROUND = 100;
/** Tables holding an incident's rows, by `incident_id` (no foreign keys: each is deleted explicitly). */
const INCIDENT_TABLES = [
  'alerts',
  'timeline_entries',
  'notifications',
  'carrier_attempts',
  'user_notifications',
  'ingest_outbox',
  'incident_events',
  'feed_deliveries',
  'slack_messages',
  'incident_first_pages',
] as const satisfies readonly PurgedTable[];

/** What one purge did: rows deleted per table, and whether nothing expired is left. */
export interface PurgeResult {
  deleted: PurgeCounts;
  /** False when the time budget ran out first: another call carries on where this one stopped. */
  finished: boolean;
}

export interface PurgeOptions {
  /** Epoch ms after which no new statement starts (the activity's budget); none: until done. */
  deadline?: number;
  batchRows?: number;
}

/**
 * Deletes what is past its cutoff, in statements of at most `batchRows` rows, each committed on
 * its own: idempotency records after they expired, delivered outbox messages, provider callbacks
 * and dev-inbox pages after their age, response-time and published-latency buckets after 25 h, monitor checks after
 * 31 days, throttle counts once their window ended, and CLOSED incidents past their workspace plan's history window with every row that
 * belongs to them. An incident's rows go before the incident, so a
 * purge cut short is finished by the next one.
 */
export async function purgeExpired(k: Knex, cutoffs: RetentionCutoffs, opts: PurgeOptions = {}): Promise<PurgeResult> {
  const purge = new Purge(k, opts);
  const steps: Array<[PurgedTable, string, unknown[]]> = [
    ['idempotency_records', 'expires_at < ?', [cutoffs.idempotencyExpiredBefore]],
    ['ingest_outbox', 'delivered_at < ?', [cutoffs.outboxDeliveredBefore]],
    ['provider_callbacks', 'received_at < ?', [cutoffs.callbacksReceivedBefore]],
    // A carrier's report whose attempt never came to take it.
    ['carrier_early_reports', 'received_at < ?', [cutoffs.callbacksReceivedBefore]],
    ['dev_deliveries', 'created_at < ?', [cutoffs.devInboxCreatedBefore]],
    [
      'sessions',
      'expires_at < ? or revoked_at < ? or last_seen_at < ?',
      [cutoffs.sessionsEndedBefore, cutoffs.sessionsEndedBefore, cutoffs.sessionsIdleBefore],
    ],
    ['account_tokens', 'expires_at < ?', [cutoffs.accountTokensExpiredBefore]],
    // A used chat action token's nonce is kept until the token expires: after that the signature check refuses it anyway.
    ['chat_action_nonces', 'expires_at < ?', [cutoffs.idempotencyExpiredBefore]],
    ['invitations', 'expires_at < ?', [cutoffs.invitationsExpiredBefore]],
    ['request_metrics', 'minute < ?', [cutoffs.requestMetricsBefore]],
    ['latency_metrics', 'minute < ?', [cutoffs.latencyMetricsBefore]],
    ['monitor_checks', 'checked_at < ?', [cutoffs.monitorChecksBefore]],
    // rate-limiter-flexible keeps `expire` in epoch milliseconds.
    ['throttle_counts', 'expire < ?', [cutoffs.throttleWindowsEndedBefore.getTime()]],
    ['incident_events', 'created_at < ?', [cutoffs.incidentEventsBefore]],
    // Every feed consumer's deliveries, one rule: finished rows after their age. A delivery still
    // being tried stays, whatever its age: the log shows it until it ends (a purged incident's go with it).
    ['feed_deliveries', 'created_at < ? and (delivered_at is not null or parked_at is not null)', [cutoffs.feedDeliveriesBefore]],
  ];
  for (const [table, where, bindings] of steps) {
    if (!(await purge.rows(table, where, bindings))) return purge.result(false);
  }
  return purge.result(await purgeClosedIncidents(purge, cutoffs));
}

/** CLOSED incidents past their plan's window, a round of them at a time; false if the budget ran out. */
async function purgeClosedIncidents(purge: Purge, cutoffs: RetentionCutoffs): Promise<boolean> {
  const windows = JSON.stringify(Object.entries(cutoffs.incidentsClosedBefore).map(([plan, cutoff]) => ({ plan, cutoff: cutoff.toISOString() })));
  // Checked again by every delete: an incident reopened since it was picked is left alone.
  const guard = stillPurgeableBefore(cutoffs);
  for (;;) {
    const { rows } = (await purge.k.raw(
      `select i.id from incidents i
       join organizations o on o.id = i.organization_id
       join json_to_recordset(?::json) as w(plan text, cutoff timestamptz) on w.plan = o.plan
       where i.status = 'CLOSED' and i.closed_at < w.cutoff
       limit ${INCIDENTS_PER_ROUND}`,
      [windows],
    )) as { rows: Array<{ id: string }> };
    if (rows.length === 0) return true;
    const ids = `{${rows.map((r) => r.id).join(',')}}`;
    const doomed = `select id from incidents where id = any(?::uuid[]) and status = 'CLOSED' and closed_at < ?`;
    for (const table of INCIDENT_TABLES) {
      if (!(await purge.rows(table, `incident_id in (${doomed})`, [ids, guard]))) return false;
    }
    if (!(await purge.rows('incidents', `id in (${doomed})`, [ids, guard]))) return false;
    if (rows.length < INCIDENTS_PER_ROUND) return true;
    if (purge.outOfTime()) return false;
  }
}

/**
 * The watchdog canary's CLOSED incidents (docs/reliability.md), whatever their age, with every row
 * of theirs: a canary run leaves at most one incident's rows behind until the next run. Only in a
 * workspace marked `canary`: a customer's incidents are never touched here.
 */
export async function purgeClosedCanaryIncidents(k: Knex, organizationId: string): Promise<PurgeResult> {
  const purge = new Purge(k, {});
  const doomed = `select i.id from incidents i join organizations o on o.id = i.organization_id
                   where i.organization_id = ? and o.canary and i.status = 'CLOSED'`;
  for (const table of INCIDENT_TABLES) await purge.rows(table, `incident_id in (${doomed})`, [organizationId]);
  await purge.rows('incidents', `id in (${doomed})`, [organizationId]);
  return purge.result(true);
}

/** Batched deletes with their counts and the time budget. */
class Purge {
  private readonly deleted = noPurgeCounts();
  private readonly batchRows: number;

  constructor(
    readonly k: Knex,
    private readonly opts: PurgeOptions,
  ) {
    this.batchRows = opts.batchRows ?? PURGE_BATCH_ROWS;
  }

  outOfTime(): boolean {
    return this.opts.deadline !== undefined && Date.now() >= this.opts.deadline;
  }

  /**
   * Deletes the rows of `table` matching `where`, a batch per statement, until none is left
   * (true) or the budget ran out (false). By ctid: one plan for every table, whatever its key.
   */
  async rows(table: PurgedTable, where: string, bindings: unknown[]): Promise<boolean> {
    for (;;) {
      const res = (await this.k.raw(
        `delete from ${table} where ctid = any(array(select ctid from ${table} where ${where} limit ${this.batchRows}))`,
        bindings,
      )) as { rowCount: number };
      this.deleted[table] += res.rowCount;
      if (res.rowCount < this.batchRows) return true;
      if (this.outOfTime()) return false;
    }
  }

  result(finished: boolean): PurgeResult {
    return { deleted: { ...this.deleted }, finished };
  }
}
