import type { Knex } from '@mikro-orm/postgresql';
import { describePage, pageEntryData, type PageOutcome } from '../../src/domain/paging/page-outcome';
import { recordPageEntry } from '../../src/services/incident';

/**
 * The page's timeline entry, at the seq the workflow reserved, naming the person paged (their
 * `email`), with its structured data; idempotent (a retry finds its entry). Returns the outcome,
 * for chaining.
 */
export async function recordPageOutcome(
  k: Knex,
  input: { incidentId: string; seq: number; job: { userId: string | null } },
  outcome: PageOutcome,
  email: string | null,
  /** Another write to make in the same statement (the page's in-app notification). */
  alsoWrite?: { sql: string; bindings: unknown[] },
): Promise<PageOutcome> {
  await recordPageEntry(
    k,
    {
      incidentId: input.incidentId,
      seq: input.seq,
      channel: outcome.channel,
      message: describePage(outcome, email),
      data: pageEntryData(outcome, input.job.userId),
    },
    alsoWrite,
  );
  return outcome;
}
