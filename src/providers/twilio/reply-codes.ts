import type { Knex } from '@mikro-orm/postgresql';

/**
 * The digits an SMS reply starts with. One number keeps its code for an incident; a new incident
 * takes the next code (1–99, wrapping; a reply goes to the newest page with that code). One
 * statement: the cursor row's lock is held only while it runs, so pages to one phone never wait
 * on each other across round trips. Two pages of one incident racing to one number may take two
 * codes; each still answers for that incident.
 */
export async function nextReplyCode(k: Knex, target: string, incidentId: string): Promise<number> {
  const { rows } = await k.raw(
    `with same as (
       select reply_code from notifications where target = :target and incident_id = :incidentId and reply_code is not null limit 1
     ), bumped as (
       insert into reply_code_cursors (target, last_code) select :target, 1 where not exists (select 1 from same)
       on conflict (target) do update set last_code = reply_code_cursors.last_code % 99 + 1
       returning last_code
     )
     select coalesce((select reply_code from same), (select last_code from bumped)) as code`,
    { target, incidentId },
  );
  return Number(rows[0].code);
}
