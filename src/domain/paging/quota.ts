import { CHANNELS, type ChannelId } from '../channels';
import { PLAN_LIMITS, type Plan } from '../plans';

/**
 * Whether the plan has a say in a page on this channel: the channel counts against a monthly
 * quota (SMS, voice), or the plan pages by email only (FREE) and this is not email. Only then
 * does sending need the month's count and the person's email address.
 */
export function planRestrictsChannel(plan: Plan, channel: ChannelId): boolean {
  return CHANNELS[channel].quota !== null || (PLAN_LIMITS[plan].emailPagesOnly && channel !== 'email');
}

/**
 * Plan quotas (docs/architecture.md, "Plans"), a pure function of the plan: why a page on `channel` goes by email
 * instead, or null when it goes as asked. A plan that pages by email only (FREE) sends every
 * other channel (push included) by email; a channel with a registry `quota` (SMS, voice) is
 * counted per user per calendar month (UTC), `usedThisMonth` being the person's pages on it so
 * far. The reason lands on the page's row (`fallback_reason`) and its timeline entry.
 */
export function quotaFallbackReason(plan: Plan, channel: ChannelId, usedThisMonth: number): string | null {
  if (channel === 'email') return null;
  if (PLAN_LIMITS[plan].emailPagesOnly) return `the ${plan} plan pages by email only; sent by email instead`;
  const quota = CHANNELS[channel].quota;
  if (!quota) return null;
  const limit = PLAN_LIMITS[plan][quota.limit];
  if (usedThisMonth < limit) return null;
  return limit === 0
    ? `the ${plan} plan includes no ${quota.pages} pages; sent by email instead`
    : `${quota.pages} quota of the ${plan} plan reached (${limit} per user per month); sent by email instead`;
}

/** The first instant of the calendar month (UTC) that `at` falls in. */
export function monthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}
