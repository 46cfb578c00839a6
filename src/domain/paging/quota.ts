import { CHANNELS, type ChannelId } from '../channels';
import { PLAN_LIMITS, type Plan } from '../plans';

/**
 * Plan quotas (design.md §9): a channel with a registry `quota` (SMS, voice) is counted per user
 * per calendar month (UTC). Over quota the page goes by email instead; the reason lands on the timeline.
 */
export function quotaFallbackReason(plan: Plan, channel: ChannelId, usedThisMonth: number): string | null {
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
