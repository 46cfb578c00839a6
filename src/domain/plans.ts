/** Plans and their entitlements (docs/architecture.md, "Plans"). */
export const PLANS = ['FREE', 'STARTER', 'PRO', 'BUSINESS'] as const;
export type Plan = (typeof PLANS)[number];

export interface PlanLimits {
  users: number | null;
  sources: number | null;
  alertsPerMonth: number | null;
  smsPerUserPerMonth: number;
  voicePerUserPerMonth: number;
  /** Pages go by email only: every other channel falls back to email (FREE: "email notifications"). */
  emailPagesOnly: boolean;
  historyDays: number;
  apiAccess: boolean;
  /** The shortest interval between two checks of an HTTP monitor. */
  monitorMinIntervalSeconds: number;
  /** Outgoing webhook subscriptions a workspace may hold (docs/api/outgoing-webhooks.md); 0: none. */
  outgoingWebhooks: number;
  /** Slack and Microsoft Teams (docs/chat.md): connecting Slack, chat destinations per service, Slack DMs. */
  chat: boolean;
  /** Single sign-on through the workspace's identity provider (docs/sso.md): OIDC or SAML, email domains, require_sso. */
  singleSignOn: boolean;
  /** Recurring drills (`drill_schedules`) a workspace may hold (docs/drills.md): each one pages people on a cron. */
  recurringDrills: number;
}

export const PLAN_LIMITS: Readonly<Record<Plan, PlanLimits>> = {
  FREE: {
    users: 5,
    sources: 3,
    alertsPerMonth: 50,
    smsPerUserPerMonth: 0,
    voicePerUserPerMonth: 0,
    emailPagesOnly: true,
    historyDays: 7,
    apiAccess: false,
    monitorMinIntervalSeconds: 300,
    outgoingWebhooks: 0,
    chat: false,
    singleSignOn: false,
    recurringDrills: 2,
  },
  STARTER: {
    users: 25,
    sources: 15,
    alertsPerMonth: null,
    smsPerUserPerMonth: 100,
    voicePerUserPerMonth: 0,
    emailPagesOnly: false,
    historyDays: 30,
    apiAccess: false,
    monitorMinIntervalSeconds: 60,
    outgoingWebhooks: 5,
    chat: true,
    singleSignOn: false,
    recurringDrills: 5,
  },
  PRO: {
    users: null,
    sources: 50,
    alertsPerMonth: null,
    smsPerUserPerMonth: 300,
    voicePerUserPerMonth: 100,
    emailPagesOnly: false,
    historyDays: 90,
    apiAccess: true,
    monitorMinIntervalSeconds: 30,
    outgoingWebhooks: 20,
    chat: true,
    singleSignOn: false,
    recurringDrills: 10,
  },
  BUSINESS: {
    users: null,
    sources: null,
    alertsPerMonth: null,
    smsPerUserPerMonth: 1000,
    voicePerUserPerMonth: 300,
    emailPagesOnly: false,
    historyDays: 365,
    apiAccess: true,
    monitorMinIntervalSeconds: 30,
    outgoingWebhooks: 100,
    chat: true,
    singleSignOn: true,
    recurringDrills: 50,
  },
};

/** The cheapest plan with chat (the plan-limit message names it). */
export const CHAT_MIN_PLAN: Plan = 'STARTER';

/** The only plan with single sign-on (the plan-limit message names it). */
export const SSO_PLAN: Plan = 'BUSINESS';

/** The floor under every plan's monitor interval (MONITOR_MIN_INTERVAL_SECONDS's default). */
export const MONITOR_INTERVAL_FLOOR_SECONDS = 30;

/**
 * The shortest monitor interval a workspace may ask for: the plan's minimum, and never below the
 * configured floor. A floor configured below the default (tests, development) lifts plan minimums too.
 */
export const monitorMinIntervalSeconds = (plan: Plan, floor = MONITOR_INTERVAL_FLOOR_SECONDS): number =>
  floor < MONITOR_INTERVAL_FLOOR_SECONDS ? floor : Math.max(floor, PLAN_LIMITS[plan].monitorMinIntervalSeconds);

/** True when `to` is a higher plan than `from` (PLANS is in price order). */
export const isUpgrade = (from: Plan, to: Plan): boolean => PLANS.indexOf(to) > PLANS.indexOf(from);

export const planHasApiAccess = (plan: Plan): boolean => PLAN_LIMITS[plan].apiAccess;

/** The usage period an instant falls in (`plan_usage.period`): `YYYY-MM`, UTC. */
export const usagePeriod = (at: Date): string => at.toISOString().slice(0, 7);

/** When a monthly quota resets: the first instant of the next calendar month (UTC). */
export const nextPeriodStart = (at: Date): Date => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));

/** The shares of the monthly alert quota at which the workspace's admins are emailed, once each a month. */
export const USAGE_THRESHOLDS = [80, 100] as const;
export type UsageThreshold = (typeof USAGE_THRESHOLDS)[number];

/** The alerts at which a threshold is reached: 40 and 50 of FREE's 50. */
export const thresholdAlerts = (limit: number, threshold: UsageThreshold): number => Math.ceil((limit * threshold) / 100);

/**
 * Which requests of a batch a monthly alert quota takes, in order: each stores all its alerts or
 * none (a 429 stores nothing), and a request that stores none (a resolve) always fits. Returns
 * whether each was admitted and the month's count after them.
 */
export function admitAlerts(limit: number, used: number, requested: readonly number[]): { admitted: boolean[]; used: number } {
  const admitted = requested.map((n) => {
    if (n > 0 && used + n > limit) return false;
    used += n;
    return true;
  });
  return { admitted, used };
}
