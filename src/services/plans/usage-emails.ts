import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import type { AccountMailer } from '../accounts/mailer';
import { resetDate, type UsageNotice } from './alert-quota';

/** The roles that hear about the workspace's plan usage: they can change the plan or the sources. */
const TOLD_ROLES = ['BILLING_OWNER', 'ACCOUNT_ADMIN'];

/** The email of one usage notice: what was reached, what happens next, and when it resets. */
export function usageEmail(notice: UsageNotice, workspace: string): { subject: string; text: string } {
  const reset = resetDate(notice.resetsAt);
  if (notice.threshold === 100) {
    return {
      subject: `${workspace} has used all ${notice.limit} alerts of its ${notice.plan} plan this month`,
      text:
        `${workspace} has stored ${notice.limit} of the ${notice.limit} alerts its ${notice.plan} plan includes this month.\n\n` +
        `New alerts are refused (HTTP 429, plan_limit_reached) and page nobody until the quota resets on ${reset}.\n` +
        `Upgrade the plan to store and page them again now.\n`,
    };
  }
  return {
    subject: `${workspace} has used ${notice.threshold} % of its ${notice.plan} plan's alerts this month`,
    text:
      `${workspace} has stored ${notice.alerts} of the ${notice.limit} alerts its ${notice.plan} plan includes this month.\n\n` +
      `Past ${notice.limit}, new alerts are refused and page nobody until the quota resets on ${reset}.\n`,
  };
}

/**
 * Sends each usage notice, once, to every Billing Owner and Account Admin of its workspace (the
 * notice was marked sent when its batch committed). Returns the failures, so the caller can
 * log them: a lost email does not undo stored alerts.
 */
export async function sendUsageEmails(orm: MikroORM, mailer: AccountMailer, notices: UsageNotice[]): Promise<unknown[]> {
  const failures: unknown[] = [];
  for (const notice of notices) {
    const people: Array<{ email: string; workspace: string }> = await knexOf(orm)('memberships as m')
      .join('users as u', 'u.id', 'm.user_id')
      .join('organizations as o', 'o.id', 'm.organization_id')
      .select('u.email', 'o.name as workspace')
      .where('m.organization_id', notice.organizationId)
      .whereIn('m.role', TOLD_ROLES)
      .orderBy('u.email');
    for (const person of people) {
      try {
        await mailer.send({ to: person.email, ...usageEmail(notice, person.workspace) });
      } catch (err) {
        failures.push(err);
      }
    }
  }
  return failures;
}
