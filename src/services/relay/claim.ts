import type { Knex } from '@mikro-orm/postgresql';
import type { PendingRow } from './outbox-rows';

/**
 * One statement claims a relay pass's rows: the oldest undelivered rows that are due, locked
 * (`FOR UPDATE OF o SKIP LOCKED`) for the transaction the pass holds while it signals, so
 * another relay (another API process) skips them instead of delivering them too.
 *
 * Each incident's rows must still land in order. A row is not claimed behind an earlier row of
 * its incident that is backing off (`next_attempt_at` in the future), so the LIMIT is filled
 * with rows that can go; and of what was claimed, an incident's rows from its first earlier
 * undelivered row this pass did not get (another relay holds it, or it became visible too late)
 * are dropped from the pass: they stay locked until it commits, untouched, and a later pass takes
 * them. That check is one step per claimed row: the undelivered row just before it must be the
 * one claimed just before it (or none, for the incident's first).
 *
 * A parked row blocks nothing: it is a dead letter, and the incident's later alerts must still
 * reach its workflow (an operator's `klaxon outbox retry` delivers it late, out of order).
 *
 * Each lookup is one probe of a partial index on undelivered, unparked rows (the one for
 * backing-off rows is nearly always empty), so the cost grows with the rows claimed, not with an
 * incident's backlog or history, and no join can turn quadratic on a table without statistics
 * yet (a fresh install's first storm).
 */
const CLAIM_SQL = `
with claimed as (
  select o.id, o.seq, o.event_id, o.kind, o.incident_seq, o.detail, o.attempts, o.incident_id, i.organization_id, i.service_id,
         i.severity, i.status, i.last_seq, coalesce(a.title, i.title) as title
  from ingest_outbox o
  join incidents i on i.id = o.incident_id
  left join alerts a on a.id = o.event_id
  where o.delivered_at is null and o.parked_at is null
    and (o.next_attempt_at is null or o.next_attempt_at <= now())
    and (o.incident_id <> all(?::uuid[])
         or exists (select 1 from ingest_outbox u
                    where u.incident_id = o.incident_id and u.delivered_at is null and u.parked_at is null and u.kind <> 'attached'))
    and not exists (
      select 1 from ingest_outbox b
      where b.incident_id = o.incident_id and b.seq < o.seq
        and b.delivered_at is null and b.parked_at is null and b.next_attempt_at is not null and b.next_attempt_at > now())
  order by o.seq
  limit ?
  for update of o skip locked
),
in_line as (
  select c.*,
         (select e.seq from ingest_outbox e
          where e.incident_id = c.incident_id and e.seq < c.seq and e.delivered_at is null and e.parked_at is null
          order by e.seq desc limit 1)
           is not distinct from lag(c.seq) over (partition by c.incident_id order by c.seq) as follows_previous
  from claimed c
),
deliverable as (
  select l.*, bool_and(l.follows_previous) over (partition by l.incident_id order by l.seq) as in_order
  from in_line l
)
select id, event_id, kind, incident_seq, detail, attempts, incident_id, organization_id, service_id, severity, status, last_seq, title,
       (select count(*) from claimed)::int as claimed_rows
from deliverable
where in_order
order by seq`;

/**
 * Claims up to `limit` rows for the pass running in `trx`, oldest first, none of the incidents
 * held back unless it has an undelivered row that is not an attached alert (an opening, a resolve
 * or a sender's acknowledge must not wait for the incident's signal pacing; an acknowledge stops
 * its paging): that check is part of the claim, not a statement of its own. `full`: the claim took
 * `limit` rows before the in-order check, so more may be waiting.
 */
export async function claimRows(trx: Knex.Transaction, limit: number, heldBack: readonly string[]): Promise<{ rows: PendingRow[]; full: boolean }> {
  const result = await trx.raw(CLAIM_SQL, [`{${heldBack.join(',')}}`, limit]);
  const rows = (result.rows as Array<PendingRow & { claimed_rows?: number }>).map(({ claimed_rows: _n, ...row }) => row);
  const claimed = (result.rows as Array<{ claimed_rows: number }>)[0]?.claimed_rows ?? 0;
  return { rows, full: claimed >= limit };
}
