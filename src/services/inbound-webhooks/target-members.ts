import type { Knex } from '@mikro-orm/postgresql';
import type { FormBName } from '../../domain/inbound-webhook-targets';

/**
 * Which member of the workspace an address belongs to: their account email, or one of their
 * verified, working contact methods on the channel (a phone number serves SMS and calls alike).
 * Targets reach members only (docs/security.md, "Test notifications"): an address nobody in the
 * workspace has proved is theirs would let a workspace text or call anyone on the operator's bill.
 */
export async function memberOwningAddress(db: Knex, organizationId: string, channel: Exclude<FormBName, 'push'>, address: string): Promise<string | undefined> {
  const types = channel === 'email' ? ['email'] : ['sms', 'voice'];
  const contact = await db('contact_methods as c')
    .join('memberships as m', function () {
      this.on('m.user_id', '=', 'c.user_id').andOn('m.organization_id', '=', 'c.organization_id');
    })
    .where({ 'c.organization_id': organizationId, 'c.address': address })
    .whereIn('c.type', types)
    .whereNotNull('c.verified_at')
    .whereNull('c.disabled_at')
    .first('c.user_id');
  if (contact) return contact.user_id as string;
  if (channel !== 'email') return undefined;
  const account = await db('users as u')
    .join('memberships as m', 'm.user_id', 'u.id')
    .where({ 'm.organization_id': organizationId, 'u.email': address })
    .first('u.id');
  return account?.id as string | undefined;
}
