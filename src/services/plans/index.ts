/**
 * Plan limits enforced where they apply (docs/architecture.md, "Plans"): the monthly alert quota of capped plans
 * (FREE), counted inside ingestion's batch transaction, and the usage emails at 80 % and 100 %.
 * Page channels by plan are decided in src/domain/paging/quota.ts.
 */
export {
  AlertQuotaReached,
  chargeAlerts,
  resyncAlertUsage,
  PLAN_LIMIT_REACHED,
  resetDate,
  type AlertCharge,
  type QuotaRefusal,
  type UsageNotice,
} from './alert-quota';
export { sendUsageEmails, usageEmail } from './usage-emails';
