import type { Knex } from '@mikro-orm/postgresql';
import { CHANNELS, type ChannelId } from '../../domain/channels';
import { PLAN_LIMITS, type Plan } from '../../domain/plans';
import { monthStart, planRestrictsChannel, quotaFallbackReason } from '../../domain/paging/quota';
import { claimAttempt, claimUnderQuota, type ClaimedAttempt, type PageRoute, type SendPageInput } from './pages';
import { COUNTED_PAGE_STATUSES, lockMonthlyQuota, monthlyPagesUsed } from './quota-usage';

/**
 * True when the plan decides where a person's page goes: SMS and voice count against a quota,
 * and on a plan that pages by email only (FREE) every channel but email falls back to it.
 */
export const countsAgainstQuota = (input: SendPageInput, plan: Plan): boolean => input.job.userId !== null && planRestrictsChannel(plan, input.job.channel);

/**
 * A page the plan has a say in (docs/architecture.md, "Paging"): the month's pages (and drill sends, ./quota-usage.ts) of the person on the channel are counted
 * and the attempt claimed under one transaction-scoped advisory lock per person, channel and
 * month, so parallel pages see each other's claims and never exceed the quota. Over it, the page
 * goes by email and says why. Returns the route and the claim (null: not wanted any more).
 */
export async function claimWithinQuota(
  k: Knex,
  input: SendPageInput,
  plan: Plan,
  replyCode: number | null,
): Promise<{ route: PageRoute; claim: ClaimedAttempt | null }> {
  const { job } = input;
  const month = monthStart(new Date());
  const asked: PageRoute = { channel: job.channel, address: job.address, fallbackReason: null };
  return k.transaction(async (trx) => {
    await lockMonthlyQuota(trx, job.userId!, job.channel, month);
    // A page whose route only the month's count decides (SMS, voice on a plan that pages by them):
    // counted and claimed in one statement, the claim only under the quota; over it, as below.
    const limit = countedLimit(plan, job.channel);
    if (limit !== null) {
      const { used, claim } = await claimUnderQuota(trx, input, asked, replyCode, { since: month, statuses: COUNTED_PAGE_STATUSES, limit });
      if (used < limit) return { route: asked, claim };
    }
    // Only a channel with a quota needs the month's count (push on FREE falls back whatever it is).
    const used =
      CHANNELS[job.channel].quota === null
        ? 0
        : await monthlyPagesUsed(trx, { userId: job.userId!, channel: job.channel, since: month, exceptNotificationId: input.notificationId });
    const reason = quotaFallbackReason(plan, job.channel, used);
    const route: PageRoute = reason
      ? { channel: 'email', address: await emailOf(trx, job.userId!), fallbackReason: reason }
      : { channel: job.channel, address: job.address, fallbackReason: null };
    return { route, claim: await claimAttempt(trx, input, route, reason ? null : replyCode) };
  });
}

/**
 * The monthly limit a page on `channel` is held to when the plan's only say is that count (a
 * channel with a quota, on a plan that does not page by email only): under it the page goes as
 * asked (quotaFallbackReason answers null exactly then). Null otherwise.
 */
function countedLimit(plan: Plan, channel: ChannelId): number | null {
  const quota = CHANNELS[channel].quota;
  if (channel === 'email' || !quota || PLAN_LIMITS[plan].emailPagesOnly) return null;
  return PLAN_LIMITS[plan][quota.limit];
}

/** Where a person's email pages go: their first enabled email contact method, else their login. */
async function emailOf(k: Knex, userId: string): Promise<string> {
  const { rows } = (await k.raw(
    `select coalesce(
       (select address from contact_methods where user_id = :userId and type = 'email' and disabled_at is null order by created_at, id limit 1),
       (select email from users where id = :userId)) as address`,
    { userId },
  )) as { rows: Array<{ address: string }> };
  return rows[0].address;
}
