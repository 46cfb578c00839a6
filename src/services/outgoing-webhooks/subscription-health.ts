import type { Knex } from '@mikro-orm/postgresql';

/**
 * What deliveries teach about a subscription (docs/integrations.md): a success clears its
 * failing streak, a failure starts one, and the system disables a subscription that is gone
 * (410) or has failed for days. The deliverer reports here; this module writes the rows.
 */

/** A success: the subscription is no longer failing. */
export async function markSucceeded(k: Knex, webhookId: string): Promise<void> {
  await k('outgoing_webhooks').where({ id: webhookId }).whereNotNull('failing_since').update({ failing_since: null });
}

/** A failure: when its failing streak started (now, if this is the first). */
export async function markFailing(k: Knex, webhookId: string): Promise<Date | undefined> {
  const [row] = await k('outgoing_webhooks')
    .where({ id: webhookId })
    .update({ failing_since: k.raw('coalesce(failing_since, now())') }, ['failing_since']);
  return row ? new Date(row.failing_since) : undefined;
}

/** Disables an enabled subscription for a reason of the system's; false when it was not enabled. */
export async function disableBySystem(k: Knex, webhookId: string, reason: 'gone' | 'failing'): Promise<boolean> {
  const changed = await k('outgoing_webhooks')
    .where({ id: webhookId, enabled: true })
    .update({ enabled: false, disabled_reason: reason, updated_at: new Date() }, ['id']);
  return changed.length > 0;
}

/** The emails of a workspace's Billing Owners and Account Admins: who hears that a subscription was disabled. */
export async function adminEmails(k: Knex, organizationId: string): Promise<string[]> {
  return k('memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where('m.organization_id', organizationId)
    .whereIn('m.role', ['BILLING_OWNER', 'ACCOUNT_ADMIN'])
    .pluck('u.email');
}
