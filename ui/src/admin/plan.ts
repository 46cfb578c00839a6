import type { PlanView } from './types';

/** One line of the plan card: what, how much, and whether the limit is reached. */
export interface UsageLine {
  label: string;
  value: string;
  full: boolean;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const ofLimit = (used: number, limit: number | null) => (limit === null ? `${used} (unlimited)` : `${used} of ${limit}`);

/** Seats left for new members (pending invitations take one each); null when unlimited. */
export function seatsLeft(view: PlanView): number | null {
  const { users } = view.limits;
  return users === null ? null : Math.max(0, users - view.usage.users - view.usage.pending_invitations);
}

/** The plan's usage against its limits, in words; the alert quota's reset day is a UTC date. */
export function usageLines(view: PlanView): UsageLine[] {
  const { limits, usage } = view;
  const seats = usage.users + usage.pending_invitations;
  const pending = usage.pending_invitations ? ` (${plural(usage.users, 'member')} + ${plural(usage.pending_invitations, 'pending invitation')})` : '';
  const alertsLimit = usage.alerts_limit ?? limits.alerts_per_month;
  return [
    { label: 'Seats', value: `${ofLimit(seats, limits.users)}${pending}`, full: seatsLeft(view) === 0 },
    { label: 'Alert sources', value: ofLimit(usage.sources, limits.sources), full: limits.sources !== null && usage.sources >= limits.sources },
    {
      label: 'Alerts this month',
      value: `${ofLimit(usage.alerts_this_month, alertsLimit)}${alertsLimit === null ? '' : `, counting again from ${usage.resets_at.slice(0, 10)}`}`,
      full: alertsLimit !== null && usage.alerts_this_month >= alertsLimit,
    },
    { label: 'API access', value: limits.api_access ? 'included' : 'not included (PRO and BUSINESS have it)', full: false },
    { label: 'History kept', value: plural(limits.history_days, 'day'), full: false },
  ];
}
