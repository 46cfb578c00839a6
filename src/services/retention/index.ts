/**
 * Retention (docs/architecture.md, "Retention"): the one place rows are deleted for their age. Idempotency records
 * after they expired, delivered outbox messages after a day, provider callbacks and the dev
 * inbox after their configured ages, and CLOSED incidents past their workspace plan's history
 * window with everything of theirs (and the watchdog canary's CLOSED incidents, at once:
 * docs/reliability.md). `purge.ts` deletes in bounded batches; `schedule.ts` keeps
 * the hourly Temporal Schedule that runs `retentionWorkflow`. What is old enough is decided by
 * src/domain/retention.ts.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import { retentionCutoffs, type RetentionAges } from '../../domain/retention';
import { purgeExpired, type PurgeOptions, type PurgeResult } from './purge';

export { ensureRetentionSchedule } from './schedule';
export { PURGE_BATCH_ROWS, purgeClosedCanaryIncidents, type PurgeResult } from './purge';

/** Purges whatever is past its cutoff at this moment (the activity passes a time budget; the CLI none). */
export function purgeExpiredNow(orm: MikroORM, ages: RetentionAges, opts: PurgeOptions = {}): Promise<PurgeResult> {
  return purgeExpired(knexOf(orm), retentionCutoffs(new Date(), ages), opts);
}
