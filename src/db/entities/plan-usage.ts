import { EntitySchema } from '@mikro-orm/core';

/**
 * Alerts a workspace stored in one calendar month (UTC), counted where a plan caps them (FREE),
 * and which usage emails (80 %, 100 %) went out for that month.
 */
export interface PlanUsage {
  organizationId: string;
  /** `YYYY-MM`, UTC. */
  period: string;
  alerts: number;
  notified80At: Date | null;
  notified100At: Date | null;
}

export const PlanUsageSchema = new EntitySchema<PlanUsage>({
  name: 'PlanUsage',
  tableName: 'plan_usage',
  properties: {
    organizationId: { type: 'uuid', primary: true },
    period: { type: 'string', length: 7, primary: true },
    alerts: { type: 'integer', default: 0 },
    notified80At: { type: 'Date', columnType: 'timestamptz', nullable: true, fieldName: 'notified_80_at' },
    notified100At: { type: 'Date', columnType: 'timestamptz', nullable: true, fieldName: 'notified_100_at' },
  },
});
