import type { Knex } from '@mikro-orm/postgresql';
import { CANARY_DEADLINE_MS, CANARY_DEDUP_PREFIX } from '../../domain/watchdog';

/**
 * The one writer of `watchdog_canary` (docs/reliability.md): the run one API process claims per
 * interval, and the success the paging activity records when that run's page goes out. Times are
 * Postgres' `now()`, so the processes of a cluster share one clock.
 */

/** The canary's workspace and source, once set up (src/services/watchdog/canary-workspace.ts). */
export interface CanaryWorkspace {
  organizationId: string;
  sourceId: string;
}

/** A run this process claimed: its id (in the alert's dedup key) and the deadline it was given. */
export interface ClaimedRun {
  runId: string;
}

export async function readCanaryWorkspace(k: Knex): Promise<CanaryWorkspace | undefined> {
  const row = (await k('watchdog_canary').where({ id: 1 }).first('organization_id', 'source_id')) as { organization_id: string; source_id: string } | undefined;
  return row && { organizationId: row.organization_id, sourceId: row.source_id };
}

/** Writes the canary's one row, in the transaction that set its workspace up. */
export async function insertCanaryWorkspace(trx: Knex, w: CanaryWorkspace): Promise<void> {
  await trx('watchdog_canary').insert({ id: 1, organization_id: w.organizationId, source_id: w.sourceId });
}

/**
 * Claims this interval's run: one statement, so of a cluster's API processes only the first one
 * past the interval (less a tenth, for timer drift) runs it. Undefined: another process did.
 */
export async function claimCanaryRun(k: Knex, runId: string, intervalSeconds: number): Promise<ClaimedRun | undefined> {
  const { rows } = (await k.raw(
    `update watchdog_canary set run_id = :runId, run_started_at = now()
      where id = 1 and (run_started_at is null or run_started_at <= now() - make_interval(secs => :gap))
      returning run_id`,
    { runId, gap: intervalSeconds * 0.9 },
  )) as { rows: Array<{ run_id: string }> };
  return rows[0] ? { runId: rows[0].run_id } : undefined;
}

/**
 * The paging activity's canary route: the page of a canary incident records the success of the run
 * whose alert opened it, if that run is still the current one and within the deadline of its post.
 * True when it counted; a late page (a worker back after an outage) counts for nothing.
 */
export async function recordCanaryPage(k: Knex, incidentId: string): Promise<boolean> {
  const { rows } = (await k.raw(
    `update watchdog_canary c
        set last_success_at = now(), last_success_ms = (extract(epoch from now() - c.run_started_at) * 1000)::int
       from incidents i
      where c.id = 1 and i.id = :incidentId and i.organization_id = c.organization_id
        and i.dedup_key = :prefix || c.run_id::text
        and now() - c.run_started_at <= make_interval(secs => :deadline)
      returning c.id`,
    { incidentId, prefix: CANARY_DEDUP_PREFIX, deadline: CANARY_DEADLINE_MS / 1000 },
  )) as { rows: unknown[] };
  return rows.length > 0;
}

/** Whether this run's page was recorded (it succeeded). */
export async function canaryRunSucceeded(k: Knex, runId: string): Promise<boolean> {
  const row = await k('watchdog_canary').where({ id: 1, run_id: runId }).whereRaw('last_success_at >= run_started_at').first('id');
  return row !== undefined;
}

/** The last success and its age by Postgres' clock (null before the first one). */
export async function lastCanarySuccess(k: Knex): Promise<{ at: Date; ageMs: number; pathMs: number | null } | null> {
  const row = (await k('watchdog_canary')
    .where({ id: 1 })
    .whereNotNull('last_success_at')
    .first('last_success_at', 'last_success_ms', k.raw('(extract(epoch from now() - last_success_at) * 1000)::float8 as age_ms'))) as
    { last_success_at: Date; last_success_ms: number | null; age_ms: number } | undefined;
  return row ? { at: new Date(row.last_success_at), ageMs: Number(row.age_ms), pathMs: row.last_success_ms } : null;
}
