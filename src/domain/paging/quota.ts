import { PLAN_LIMITS, type Plan } from '../plans';
import type { PageChannel } from './form-b-channels';

/**
 * Plan quotas (design.md §9): SMS and voice are counted per user per calendar month (UTC).
 * Over quota the page goes by email instead; the reason lands on the timeline.
 */
export function quotaFallbackReason(plan: Plan, channel: PageChannel, usedThisMonth: number): string | null {
  if (channel !== 'sms' && channel !== 'voice') return null;
  const limits = PLAN_LIMITS[plan];
  const limit = channel === 'sms' ? limits.smsPerUserPerMonth : limits.voicePerUserPerMonth;
  if (usedThisMonth < limit) return null;
  const what = channel === 'sms' ? 'SMS' : 'voice call';
  return limit === 0
    ? `the ${plan} plan includes no ${what} pages; sent by email instead`
    : `${what} quota of the ${plan} plan reached (${limit} per user per month); sent by email instead`;
}

/** The first instant of the calendar month (UTC) that `at` falls in. */
export function monthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}
