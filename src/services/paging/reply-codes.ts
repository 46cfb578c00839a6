import type { Knex } from '@mikro-orm/postgresql';

/**
 * The digits an SMS reply starts with. One number keeps its code for an incident; a new incident
 * takes the next code (1–99, wrapping; a reply goes to the newest page with that code). One
 * statement: the cursor row's lock is held only while it runs, so pages to one phone never wait
 * on each other across round trips. Two pages of one incident racing to one number may take two
 * codes; each still answers for that incident.
 */
export async function nextReplyCode(k: Knex, target: string, incidentId: string): Promise<number> {
  const code = replyCodeRead(target, incidentId);
  const { rows } = await k.raw(`with ${code.with} select ${code.select} as code`, code.bindings);
  return Number(rows[0].code);
}

/**
 * nextReplyCode as parts of another statement (the page's first read: one round trip for both),
 * its expression named `select`; `onlyIf`, a condition of that statement's (no attempt has written
 * the page yet), keeps it from taking a code at all: the expression is null then.
 */
export function replyCodeRead(target: string, incidentId: string, onlyIf = 'true'): { with: string; select: string; bindings: Record<string, unknown> } {
  return {
    with: `reply_code_same as (
       select reply_code from notifications where target = :replyTarget and incident_id = :replyIncidentId and reply_code is not null and (${onlyIf}) limit 1
     ), reply_code_bumped as (
       insert into reply_code_cursors (target, last_code) select :replyTarget, 1 where not exists (select 1 from reply_code_same) and (${onlyIf})
       on conflict (target) do update set last_code = reply_code_cursors.last_code % 99 + 1
       returning last_code
     )`,
    select: 'coalesce((select reply_code from reply_code_same), (select last_code from reply_code_bumped))',
    bindings: { replyTarget: target, replyIncidentId: incidentId },
  };
}
