import type { Knex } from '@mikro-orm/postgresql';
import { describePage, type PageOutcome } from '../../src/domain/paging/page-outcome';
import { recordPageEntry } from '../../src/services/incident';

/**
 * The page's timeline entry, at the seq the workflow reserved, naming the person paged;
 * idempotent (a retry finds its entry). Returns the outcome, for chaining.
 */
export async function recordPageOutcome(
  k: Knex,
  input: { incidentId: string; seq: number; job: { userId: string | null } },
  outcome: PageOutcome,
): Promise<PageOutcome> {
  const user = input.job.userId ? await k('users').select('email').where({ id: input.job.userId }).first() : undefined;
  await recordPageEntry(k, { incidentId: input.incidentId, seq: input.seq, channel: outcome.channel, message: describePage(outcome, user?.email ?? null) });
  return outcome;
}
