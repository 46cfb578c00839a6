import type { Knex } from '@mikro-orm/postgresql';
import type { SendPageInput } from './send';

/** Where a page goes once quotas are applied: the rule's channel, or email instead. */
export interface PageRoute {
  channel: SendPageInput['job']['channel'];
  address: string;
  fallbackReason: string | null;
}

/** An attempt that may call the provider: how many attempts claimed the page, and how many of them after an unknown outcome. */
export interface ClaimedAttempt {
  attempts: number;
  unknownOutcomeRetries: number;
}

/**
 * Claims a send attempt (design.md §12), the last thing before the provider call: one statement
 * checks that the incident is still TRIGGERED and has not moved since the page's seq was
 * reserved (an acknowledge and a re-trigger make a new spell, whose pages are its own), and
 * records the attempt as `sending`. The incident row is read FOR SHARE, so an acknowledge being
 * written either commits first (no page) or waits for the claim (the page had begun). A page
 * already `sending` was claimed by an attempt whose outcome nobody knows: the claim counts it,
 * and the timeline says so. Null: the incident no longer wants the page, or it is already done.
 */
export async function claimAttempt(
  k: Knex,
  input: SendPageInput,
  route: PageRoute,
  replyCode: number | null,
): Promise<ClaimedAttempt | null> {
  const { job } = input;
  const { rows } = (await k.raw(
    `with incident as (
       select i.id, i.organization_id from incidents i
        where i.id = :incidentId and i.status = 'TRIGGERED'
          and not exists (select 1 from timeline_entries t where t.incident_id = i.id and t.type = 'status_change' and t.seq > :seq)
        for share of i
     )
     insert into notifications as n (id, organization_id, incident_id, user_id, contact_method_id, channel, target, provider, provider_message_id,
                                      status, error, reply_code, fallback_reason, escalation_step, attempts, unknown_outcome_retries, created_at, updated_at)
     select :id, organization_id, id, :userId, :contactMethodId, :channel, :target, null, null,
            'sending', null, :replyCode, :fallbackReason, :step, 1, 0, :now, :now
       from incident
     on conflict (id) do update
        set status = 'sending', attempts = n.attempts + 1,
            unknown_outcome_retries = n.unknown_outcome_retries + (n.status = 'sending')::int,
            updated_at = excluded.updated_at
      where n.status in ('queued', 'sending')
     returning attempts, unknown_outcome_retries`,
    {
      incidentId: input.incidentId,
      seq: input.seq,
      id: input.notificationId,
      userId: job.userId,
      contactMethodId: job.contactMethodId,
      channel: route.channel,
      target: route.address,
      replyCode,
      fallbackReason: route.fallbackReason,
      step: input.step,
      now: new Date(),
    },
  )) as { rows: Array<{ attempts: number; unknown_outcome_retries: number }> };
  const row = rows[0];
  return row ? { attempts: row.attempts, unknownOutcomeRetries: row.unknown_outcome_retries } : null;
}
