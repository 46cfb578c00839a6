import type { Knex } from '@mikro-orm/postgresql';
import { admitAlerts, nextPeriodStart, PLAN_LIMITS, thresholdAlerts, usagePeriod, USAGE_THRESHOLDS, type Plan, type UsageThreshold } from '../../domain/plans';

/** What one request of a batch would store: its workspace, that workspace's plan, and its new alerts. */
export interface AlertCharge {
  organizationId: string;
  plan: Plan;
  alerts: number;
}

/** A workspace's monthly alert quota, reached: what the refusal says. */
export interface QuotaRefusal {
  plan: Plan;
  limit: number;
  resetsAt: Date;
}

/** A usage email due after commit: the workspace reached `threshold` % of its monthly alerts. */
export interface UsageNotice {
  organizationId: string;
  plan: Plan;
  threshold: UsageThreshold;
  limit: number;
  alerts: number;
  resetsAt: Date;
}

/** The `code` of every answer refused by a plan limit. */
export const PLAN_LIMIT_REACHED = 'plan_limit_reached';

/** The date a quota resets on, as messages name it: `2026-12-01`. */
export const resetDate = (resetsAt: Date): string => resetsAt.toISOString().slice(0, 10);

/**
 * A request refused because its workspace has stored its plan's alerts for the month: 429 with
 * `plan_limit_reached` and `Retry-After` until the reset, in each surface's envelope.
 */
export class AlertQuotaReached extends Error {
  readonly code = PLAN_LIMIT_REACHED;
  readonly status = 429;

  constructor(readonly refusal: QuotaRefusal) {
    super(
      `the ${refusal.plan} plan stores ${refusal.limit} alerts a month and this workspace has reached it: nothing was stored; the quota resets on ${resetDate(refusal.resetsAt)}`,
    );
    this.name = 'AlertQuotaReached';
  }

  /** Seconds until the quota resets, for `Retry-After`. */
  retryAfterSeconds(now = new Date()): number {
    return Math.max(1, Math.ceil((this.refusal.resetsAt.getTime() - now.getTime()) / 1000));
  }

  /** The headers every surface answers it with. */
  get headers(): Record<string, string> {
    return { 'Retry-After': String(this.retryAfterSeconds()) };
  }
}

interface UsageRow {
  organization_id: string;
  alerts: number;
  notified_80_at: Date | null;
  notified_100_at: Date | null;
}

/**
 * Counts a batch's new alerts against the monthly quotas of capped plans (FREE), inside the
 * batch's transaction: each capped workspace's `plan_usage` row is locked (in one order, so
 * batches cannot deadlock on them) until the batch commits, so concurrent batches, in any number
 * of API processes, see each other's counts and never store more than the quota. Requests of
 * uncapped plans (or null: already answered) are not looked at, so they cost nothing. The usage
 * emails reached are marked sent in the same transaction: each goes once a month whatever
 * the race; the caller sends them after commit. Returns a refusal per request that does not fit.
 */
export async function chargeAlerts(
  trx: Knex.Transaction,
  charges: Array<AlertCharge | null>,
  now: Date,
): Promise<{ refused: Array<QuotaRefusal | null>; notices: UsageNotice[] }> {
  const refused = charges.map((): QuotaRefusal | null => null);
  const capped = new Map<string, { plan: Plan; limit: number; at: number[] }>();
  charges.forEach((c, i) => {
    const limit = c && PLAN_LIMITS[c.plan].alertsPerMonth;
    if (!c || limit === null || limit === undefined) return;
    const org = capped.get(c.organizationId) ?? { plan: c.plan, limit, at: [] };
    org.at.push(i);
    capped.set(c.organizationId, org);
  });
  if (capped.size === 0) return { refused, notices: [] };

  const period = usagePeriod(now);
  const resetsAt = nextPeriodStart(now);
  const rows = await lockUsage(
    trx,
    [...capped].map(([id, org]) => ({ id, limit: org.limit })),
    period,
  );
  const notices: UsageNotice[] = [];
  const updates: Array<{ o: string; a: number; n80: boolean; n100: boolean }> = [];
  for (const [organizationId, org] of capped) {
    const row = rows.get(organizationId)!;
    const { admitted, used } = admitAlerts(
      org.limit,
      row.alerts,
      org.at.map((i) => charges[i]!.alerts),
    );
    admitted.forEach((ok, j) => {
      if (!ok) refused[org.at[j]] = { plan: org.plan, limit: org.limit, resetsAt };
    });
    // Marked whenever reached and not yet sent: a downgraded workspace already past it hears once too.
    const reached = USAGE_THRESHOLDS.filter((t) => used >= thresholdAlerts(org.limit, t) && (t === 80 ? row.notified_80_at : row.notified_100_at) === null);
    for (const threshold of reached) notices.push({ organizationId, plan: org.plan, threshold, limit: org.limit, alerts: used, resetsAt });
    if (used !== row.alerts || reached.length) updates.push({ o: organizationId, a: used, n80: reached.includes(80), n100: reached.includes(100) });
  }
  if (updates.length) {
    await trx.raw(
      `update plan_usage p set alerts = v.a,
              notified_80_at = case when v.n80 then ? else p.notified_80_at end,
              notified_100_at = case when v.n100 then ? else p.notified_100_at end
         from json_to_recordset(?::json) as v(o uuid, a int, n80 boolean, n100 boolean)
        where p.organization_id = v.o and p.period = ?`,
      [now, now, JSON.stringify(updates), period],
    );
  }
  return { refused, notices };
}

/**
 * The month's usage rows of these workspaces, locked until the transaction ends. A workspace's
 * first row of a month starts from the alerts its sources already stored this month (up to its
 * quota), so a workspace downgraded mid-month to a capped plan is refused once past it.
 */
async function lockUsage(trx: Knex.Transaction, organizations: Array<{ id: string; limit: number }>, period: string): Promise<Map<string, UsageRow>> {
  const organizationIds = organizations.map((o) => o.id).sort();
  const select = (ids: string[]) =>
    trx('plan_usage')
      .select('organization_id', 'alerts', 'notified_80_at', 'notified_100_at')
      .where({ period })
      .whereIn('organization_id', ids)
      .orderBy('organization_id')
      .forUpdate();
  const rows = new Map<string, UsageRow>((await select(organizationIds)).map((r: UsageRow) => [r.organization_id, r]));
  const missing = organizations.filter((o) => !rows.has(o.id));
  if (missing.length) {
    const monthStart = new Date(`${period}-01T00:00:00Z`);
    await trx.raw(
      `insert into plan_usage (organization_id, period, alerts)
       select v.o, ?, (select count(*) from (
                 select 1 from alerts a join alert_sources s on s.id = a.source_id
                  where a.organization_id = v.o and a.created_at >= ? limit v.cap) as stored) -- past the quota, more tells nothing
         from json_to_recordset(?::json) as v(o uuid, cap int)
        order by v.o
       on conflict (organization_id, period) do nothing`,
      [period, monthStart, JSON.stringify(missing.map((o) => ({ o: o.id, cap: o.limit })))],
    );
    for (const r of await select(missing.map((o) => o.id))) rows.set(r.organization_id, r);
  }
  return rows;
}

/**
 * After a workspace moves to a plan that caps alerts: this month's count is at least what its
 * sources stored this month (up to the quota), so FREE → PRO → FREE within a month does not
 * forget the alerts stored while on PRO. A month without a row is seeded at its first charge.
 */
export async function resyncAlertUsage(trx: Knex, organizationId: string, plan: Plan, now: Date): Promise<void> {
  const limit = PLAN_LIMITS[plan].alertsPerMonth;
  if (limit === null) return;
  const period = usagePeriod(now);
  await trx.raw(
    `update plan_usage set alerts = greatest(alerts, (select count(*) from (
        select 1 from alerts a join alert_sources s on s.id = a.source_id
         where a.organization_id = ? and a.created_at >= ? limit ?) as stored))
      where organization_id = ? and period = ?`,
    [organizationId, new Date(`${period}-01T00:00:00Z`), limit, organizationId, period],
  );
}
