import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { isUpgrade, nextPeriodStart, PLAN_LIMITS, usagePeriod, type Plan, type PlanLimits } from '../../domain/plans';
import { resyncAlertUsage } from '../plans';
import { knexOf } from '../../db/knex';
import { recordAudit, type AuditActor } from '../audit';
import { forbidden, notFound } from '../errors';

/** A workspace's plan: its limits, what it uses of them, and changing it (docs/architecture.md, "Plans"). */

/** The limits as the dashboard shows them (snake_case; null means unlimited). */
const limitsJson = (l: PlanLimits) => ({
  users: l.users,
  sources: l.sources,
  alerts_per_month: l.alertsPerMonth,
  sms_per_user_per_month: l.smsPerUserPerMonth,
  voice_per_user_per_month: l.voicePerUserPerMonth,
  history_days: l.historyDays,
  api_access: l.apiAccess,
});

const count = async (q: Knex.QueryBuilder): Promise<number> => Number((await q.count({ n: '*' }))[0].n);

/** Members and pending invitations: both take a seat of the plan's user limit. */
async function seatsTaken(db: Knex, organizationId: string, now: Date, exceptInvitationId?: string): Promise<{ members: number; pending: number }> {
  const pending = db('invitations')
    .where({ organization_id: organizationId })
    .whereNull('accepted_at')
    .whereNull('revoked_at')
    .andWhere('expires_at', '>', now);
  if (exceptInvitationId) pending.whereNot({ id: exceptInvitationId });
  return { members: await count(db('memberships').where({ organization_id: organizationId })), pending: await count(pending) };
}

/** Why one more person does not fit: the message a refused invitation, provisioning or import gives. */
export const seatRefusal = (plan: Plan, limit: number, taken: { members: number; pending: number }): string =>
  `the ${plan} plan allows ${limit} users; this workspace has ${taken.members} member(s) and ${taken.pending} pending invitation(s) (revoke one, or change the plan)`;

/** The plan's user limit (null: none) and the seats members and pending invitations take now (what a dry run counts from). */
export async function seatState(
  db: Knex,
  organizationId: string,
  now = new Date(),
): Promise<{ plan: Plan; limit: number | null; members: number; pending: number }> {
  const org = await db('organizations').select('plan').where({ id: organizationId }).first();
  if (!org) throw notFound(`organization ${organizationId} not found`);
  const plan = org.plan as Plan;
  return { plan, limit: PLAN_LIMITS[plan].users, ...(await seatsTaken(db, organizationId, now)) };
}

/**
 * Refuses (403 `plan_limit_reached`) one more person when members plus pending invitations
 * already fill the plan's user limit. Call it in a transaction that has locked the workspace row
 * (`lockWorkspace`), so two invitations cannot both take the last seat.
 */
export async function assertRoomForOneMore(trx: Knex, organizationId: string, plan: Plan, now: Date, exceptInvitationId?: string): Promise<void> {
  const limit = PLAN_LIMITS[plan].users;
  if (limit === null) return;
  const taken = await seatsTaken(trx, organizationId, now, exceptInvitationId);
  if (taken.members + taken.pending >= limit) throw forbidden(seatRefusal(plan, limit, taken), 'plan_limit_reached');
}

/** Locks the workspace row for the transaction (serialises seat counting) and returns it. */
export async function lockWorkspace(trx: Knex, organizationId: string): Promise<{ id: string; name: string; plan: Plan }> {
  const org = await trx('organizations').select('id', 'name', 'plan').where({ id: organizationId }).forUpdate().first();
  if (!org) throw notFound(`organization ${organizationId} not found`);
  return org as { id: string; name: string; plan: Plan };
}

/** The plan, its limits and this month's usage. */
export async function getPlanView(orm: MikroORM, organizationId: string, now = new Date()) {
  const db = knexOf(orm);
  const org = await db('organizations').select('plan').where({ id: organizationId }).first();
  if (!org) throw notFound(`organization ${organizationId} not found`);
  const plan = org.plan as Plan;
  const [seats, sources, usage] = await Promise.all([
    seatsTaken(db, organizationId, now),
    count(db('alert_sources').where({ organization_id: organizationId }).whereIn('status', ['ACTIVE', 'PAUSED'])),
    db('plan_usage')
      .select('alerts')
      .where({ organization_id: organizationId, period: usagePeriod(now) })
      .first(),
  ]);
  return {
    plan,
    limits: limitsJson(PLAN_LIMITS[plan]),
    usage: {
      users: seats.members,
      pending_invitations: seats.pending,
      sources,
      alerts_this_month: Number(usage?.alerts ?? 0),
      alerts_limit: PLAN_LIMITS[plan].alertsPerMonth,
      resets_at: nextPeriodStart(now).toISOString(),
    },
  };
}
export type PlanView = Awaited<ReturnType<typeof getPlanView>>;

/**
 * Moves the workspace to another plan. A downgrade below current usage is allowed: what exists
 * stays, and the limit checks refuse new creations until usage fits. `over` names what is over.
 */
export async function changePlan(orm: MikroORM, input: { organizationId: string; actor: AuditActor; plan: Plan; upgrades?: 'allowed' | 'need_billing' }) {
  const from = await knexOf(orm).transaction(async (trx) => {
    const org = await lockWorkspace(trx, input.organizationId);
    // No billing provider takes payment here: a workspace raising its own plan would raise the
    // operator's SMS and voice bill (docs/security.md, "Plans").
    if (input.upgrades === 'need_billing' && isUpgrade(org.plan, input.plan)) {
      throw forbidden(
        `moving from ${org.plan} to ${input.plan} needs billing, which this installation has not set up: ask its operator (klaxon org plan), or downgrade instead`,
        'billing_not_configured',
      );
    }
    if (org.plan !== input.plan) {
      await trx('organizations').update({ plan: input.plan }).where({ id: input.organizationId });
      await resyncAlertUsage(trx, input.organizationId, input.plan, new Date());
      await recordAudit(trx, {
        organizationId: input.organizationId,
        actor: input.actor,
        action: 'plan.change',
        targetType: 'organization',
        targetId: input.organizationId,
        details: { from: org.plan, to: input.plan },
      });
    }
    return org.plan;
  });
  const view = await getPlanView(orm, input.organizationId);
  const l = view.limits;
  const over: string[] = [];
  if (l.users !== null && view.usage.users + view.usage.pending_invitations > l.users)
    over.push(`users (${view.usage.users} members, ${view.usage.pending_invitations} pending invitations, limit ${l.users})`);
  if (l.sources !== null && view.usage.sources > l.sources) over.push(`alert sources (${view.usage.sources}, limit ${l.sources})`);
  if (l.alerts_per_month !== null && view.usage.alerts_this_month > l.alerts_per_month)
    over.push(`alerts this month (${view.usage.alerts_this_month}, limit ${l.alerts_per_month})`);
  return { view, changed: from !== input.plan, from, over };
}
