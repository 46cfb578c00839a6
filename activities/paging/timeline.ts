import { randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/postgresql';
import type { NotificationStatus } from '../../src/db/entities/notification';

/** How one page went, as the workflow and the timeline see it. */
export interface PageOutcome {
  status: NotificationStatus;
  channel: string;
  target: string;
  error: string | null;
  fallbackReason: string | null;
  provider?: string;
}

const CHANNEL_NAMES: Record<string, string> = { sms: 'SMS', voice: 'Voice call', email: 'Email', push_ios: 'iOS push', push_android: 'Android push' };

/** One line a person can read on the timeline. */
export function describePage(o: PageOutcome, who: string | null): string {
  const what = `${CHANNEL_NAMES[o.channel] ?? o.channel} to ${who ? `${who} (${o.target})` : o.target}`;
  const why = o.fallbackReason ? ` (${o.fallbackReason})` : '';
  switch (o.status) {
    case 'failed':
      return `${what} failed: ${o.error ?? 'unknown error'}${why}`;
    case 'skipped':
      return `${what} not sent: ${o.error ?? 'not needed'}`;
    default:
      return `${what} ${o.provider === 'dev_outbox' ? 'stored in the dev outbox' : 'sent'}${why}`;
  }
}

/**
 * The page's timeline entry, at the seq the workflow reserved; idempotent (a retry finds it).
 * last_seq only grows, so a run seeded from the projection never reuses the seq.
 */
export async function recordPageEntry(
  k: Knex,
  input: { incidentId: string; seq: number; job: { userId: string | null } },
  outcome: PageOutcome,
): Promise<PageOutcome> {
  const user = input.job.userId ? await k('users').select('email').where({ id: input.job.userId }).first() : undefined;
  const via = outcome.channel;
  await k.raw(
    `with entry as (
       insert into timeline_entries (id, incident_id, organization_id, seq, type, actor_type, actor_id, via, message, created_at)
       select ?, id, organization_id, ?, 'notification', 'system', null, ?, ?, ? from incidents where id = ?
       on conflict (incident_id, seq) do nothing
     )
     update incidents set last_seq = greatest(last_seq, ?) where id = ?`,
    [randomUUID(), input.seq, via, describePage(outcome, user?.email ?? null).slice(0, 2000), new Date(), input.incidentId, input.seq, input.incidentId],
  );
  return outcome;
}
