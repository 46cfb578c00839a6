/**
 * What a person has used of a monthly SMS or voice quota (docs/architecture.md, "Paging";
 * docs/drills.md, "What counts"): real pages (`notifications`) and drill sends (`drill_results`)
 * alike, counted under one transaction-scoped lock per person, channel and month that every
 * counter takes, so a page and a drill racing for the last one cannot both have it. Reads only.
 */
import type { Knex } from '@mikro-orm/postgresql';
import type { ChannelId } from '../../domain/channels';

/** Statuses of a page that count against a quota: it went, or may still go. */
export const COUNTED_PAGE_STATUSES = ['queued', 'sending', 'sent', 'delivered'] as const;

/**
 * Drill sends of `:userId` on `:channel` since `:since` that count: claimed against the quota
 * (`counted_at`) and not failed (a refused or undelivered drill, like a failed page, costs nothing).
 */
export const DRILL_SENDS_USED_SQL = `select count(*)::int from drill_results
  where user_id = :userId and channel = :channel and counted_at is not null and status in ('pending', 'delivered') and created_at >= :since`;

/** Takes the lock a person's month on a channel is counted under, until the transaction ends. */
export async function lockMonthlyQuota(trx: Knex, userId: string, channel: ChannelId, month: Date): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`page-quota:${userId}:${channel}:${month.toISOString()}`]);
}

/** The person's counted pages and drill sends on the channel since `since`, leaving out the one being decided. */
export async function monthlyPagesUsed(
  trx: Knex,
  q: { userId: string; channel: ChannelId; since: Date; exceptNotificationId?: string; exceptDrillResultId?: string },
): Promise<number> {
  const { rows } = (await trx.raw(
    `select (select count(*)::int from notifications
              where user_id = :userId and channel = :channel and status = any(:statuses::text[]) and created_at >= :since and id <> :notificationId)
          + (${DRILL_SENDS_USED_SQL} and id <> :drillResultId) as used`,
    {
      userId: q.userId,
      channel: q.channel,
      since: q.since,
      statuses: `{${COUNTED_PAGE_STATUSES.join(',')}}`,
      // The nil UUID stands for "none": no row has it.
      notificationId: q.exceptNotificationId ?? '00000000-0000-0000-0000-000000000000',
      drillResultId: q.exceptDrillResultId ?? '00000000-0000-0000-0000-000000000000',
    },
  )) as { rows: Array<{ used: number }> };
  return Number(rows[0].used);
}
