import type { MikroORM } from '@mikro-orm/postgresql';
import { DEFAULT_RETENTION_AGES, type RetentionAges } from '../src/domain/retention';
import { purgeExpiredNow, type PurgeResult } from '../src/services/retention';

/** How long one purge activity deletes before it hands back (the workflow calls it again). */
const PASS_BUDGET_MS = 60_000;

/**
 * The retention workflow's one activity: a purge with a time budget, so a big backlog is worked
 * off in passes that each finish well inside their timeout. Activity names are recorded in
 * histories: keep them.
 */
export function createRetentionActivities({ orm, ages = DEFAULT_RETENTION_AGES }: { orm: MikroORM; ages?: RetentionAges }) {
  async function purgeExpired(): Promise<PurgeResult> {
    return purgeExpiredNow(orm, ages, { deadline: Date.now() + PASS_BUDGET_MS });
  }
  return { purgeExpired };
}
