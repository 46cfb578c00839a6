/** Plans and their entitlements (design.md §9). */
export const PLANS = ['FREE', 'STARTER', 'PRO', 'BUSINESS'] as const;
export type Plan = (typeof PLANS)[number];

export interface PlanLimits {
  users: number | null;
  sources: number | null;
  alertsPerMonth: number | null;
  smsPerUserPerMonth: number;
  voicePerUserPerMonth: number;
  historyDays: number;
  apiAccess: boolean;
}

export const PLAN_LIMITS: Readonly<Record<Plan, PlanLimits>> = {
  FREE: { users: 5, sources: 3, alertsPerMonth: 50, smsPerUserPerMonth: 0, voicePerUserPerMonth: 0, historyDays: 7, apiAccess: false },
  STARTER: { users: 25, sources: 15, alertsPerMonth: null, smsPerUserPerMonth: 100, voicePerUserPerMonth: 0, historyDays: 30, apiAccess: false },
  PRO: { users: null, sources: 50, alertsPerMonth: null, smsPerUserPerMonth: 300, voicePerUserPerMonth: 100, historyDays: 90, apiAccess: true },
  BUSINESS: { users: null, sources: null, alertsPerMonth: null, smsPerUserPerMonth: 1000, voicePerUserPerMonth: 300, historyDays: 365, apiAccess: true },
};

export const planHasApiAccess = (plan: Plan): boolean => PLAN_LIMITS[plan].apiAccess;
