/**
 * What is old enough to purge (docs/architecture.md, "Retention"): pure, so the cutoffs are decided in one place and
 * tested without a database; src/services/retention does the deletes.
 */
import { PLAN_LIMITS, PLANS, type Plan } from './plans';

/** How long rows without a plan-bound window are kept. */
export interface RetentionAges {
  /** Outbox messages after they were delivered (docs/architecture.md, "Paging": a day). */
  deliveredOutboxHours: number;
  /** Provider callbacks (used SMS replies, keypresses, page links), kept so a replay acts no more. */
  callbackDays: number;
  /** The dev inbox: pages of channels without provider credentials. */
  devInboxDays: number;
}

export const DEFAULT_RETENTION_AGES: RetentionAges = { deliveredOutboxHours: 24, callbackDays: 7, devInboxDays: 7 };

/** Rows older than these instants go; idempotency records go once they expired. */
export interface RetentionCutoffs {
  idempotencyExpiredBefore: Date;
  outboxDeliveredBefore: Date;
  callbacksReceivedBefore: Date;
  devInboxCreatedBefore: Date;
  /** Dashboard sessions that ended (expired, revoked) before this, or were last used before `sessionsIdleBefore`. */
  sessionsEndedBefore: Date;
  sessionsIdleBefore: Date;
  /** One-time email tokens (verify, reset) and invitations that expired before this. */
  accountTokensExpiredBefore: Date;
  invitationsExpiredBefore: Date;
  /** Response-time buckets (/api/response-time reads 24 h of them). */
  requestMetricsBefore: Date;
  /** Published-latency minutes (/api/status reads a day of them; /metrics reads the running totals, kept). */
  latencyMetricsBefore: Date;
  /** HTTP monitor checks (/api/uptime reads 30 days of them). */
  monitorChecksBefore: Date;
  /** Throttle counts whose window ended before this (an ended window counts nothing). */
  throttleWindowsEndedBefore: Date;
  /** Incident events written before this: consumers took them long ago (docs/integrations.md). */
  incidentEventsBefore: Date;
  /** Feed deliveries of every consumer, delivered or given up, created before this (the delivery logs). */
  feedDeliveriesBefore: Date;
  /** Per plan: a CLOSED incident closed before this goes, with everything that belongs to it. */
  incidentsClosedBefore: Record<Plan, Date>;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The cutoffs at `now`: each age back from it; incidents by their workspace plan's history window. */
export function retentionCutoffs(now: Date, ages: RetentionAges = DEFAULT_RETENTION_AGES): RetentionCutoffs {
  const ago = (ms: number) => new Date(now.getTime() - ms);
  return {
    idempotencyExpiredBefore: now,
    outboxDeliveredBefore: ago(ages.deliveredOutboxHours * HOUR_MS),
    callbacksReceivedBefore: ago(ages.callbackDays * DAY_MS),
    devInboxCreatedBefore: ago(ages.devInboxDays * DAY_MS),
    // A day after they stopped working: sessions end after 12 h idle (src/services/accounts/sessions.ts).
    sessionsEndedBefore: ago(DAY_MS),
    sessionsIdleBefore: ago(DAY_MS + 12 * HOUR_MS),
    accountTokensExpiredBefore: ago(DAY_MS),
    // Kept a month past expiry, so an admin can still see who was invited and never came.
    invitationsExpiredBefore: ago(30 * DAY_MS),
    // An hour and a day past the windows that read them: a window never finds its oldest rows gone.
    requestMetricsBefore: ago(25 * HOUR_MS),
    latencyMetricsBefore: ago(25 * HOUR_MS),
    monitorChecksBefore: ago(31 * DAY_MS),
    throttleWindowsEndedBefore: now,
    incidentEventsBefore: ago(30 * DAY_MS),
    feedDeliveriesBefore: ago(30 * DAY_MS),
    incidentsClosedBefore: Object.fromEntries(PLANS.map((plan) => [plan, ago(PLAN_LIMITS[plan].historyDays * DAY_MS)])) as Record<Plan, Date>,
  };
}

/**
 * The most recent of the plans' incident cutoffs: an incident picked for purging that is no
 * longer CLOSED before it was reopened (or closed again) meanwhile, and is left alone.
 */
export function stillPurgeableBefore(cutoffs: RetentionCutoffs): Date {
  return new Date(Math.max(...Object.values(cutoffs.incidentsClosedBefore).map((d) => d.getTime())));
}

export { PURGED_TABLES, noPurgeCounts, addPurgeCounts, type PurgedTable, type PurgeCounts } from './purge-counts';
