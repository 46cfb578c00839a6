/**
 * The one writer of `external_identities` (docs/sso.md), and just-in-time membership: who an
 * identity provider's answer signs in, in the connection's workspace. A link holds only in the
 * workspace whose connection made it (docs/security.md, "Single sign-on and SCIM trust boundaries").
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/postgresql';
import type { Role } from '../../domain/roles';
import { forbidden } from '../errors';
import type { LoginConnection } from './connections';
import { inProvenDomain } from './domains';
import type { VerifiedIdentity } from './sign-in-methods';

/** The member an identity signs in as, and whether this sign-in made them one. */
export interface SsoMember {
  userId: string;
  email: string;
  role: Role;
  /** A new account (no password: it signs in with SSO only). */
  createdUser: boolean;
  /** A new membership with the connection's default role (just-in-time). */
  joined: boolean;
}

const accountExists = (email: string) =>
  forbidden(`an account with ${email} already exists: ask an admin of this workspace to invite it, accept, then sign in with SSO`, 'sso_account_exists');

/**
 * Finds or makes the member: the person the IdP's subject was linked to before in this workspace,
 * else the account with the vouched email address. Not yet a member: a new account joins with the
 * default role when the address is in one of the workspace's proven domains (403
 * `sso_domain_not_allowed` otherwise); an existing account must be invited first (403
 * `sso_account_exists`), and so must one that SCIM made a member here without its consent (an
 * account that existed before). An address the IdP has not verified is refused (403
 * `sso_email_unverified`): an IdP that lets people type any address must not sign them in as its owner.
 */
export async function memberForIdentity(db: Knex, connection: LoginConnection, identity: VerifiedIdentity, now = new Date()): Promise<SsoMember> {
  if (!identity.emailVerified)
    throw forbidden('the identity provider has not verified this email address (email_verified is not true)', 'sso_email_unverified');
  const email = identity.email.trim().toLowerCase();
  return db.transaction(async (trx) => {
    const linked = (await trx('external_identities')
      .select('user_id')
      .where({ organization_id: connection.organizationId, issuer: identity.issuer, subject: identity.subject })
      .first()) as { user_id: string } | undefined;
    const byEmail = linked ? undefined : ((await trx('users').select('id').where({ email }).first()) as { id: string } | undefined);
    const knownId = linked?.user_id ?? byEmail?.id;
    const membership = knownId
      ? ((await trx('memberships').select('role').where({ user_id: knownId, organization_id: connection.organizationId }).first()) as
          { role: Role } | undefined)
      : undefined;
    if (membership && (await adoptedByScim(trx, connection.organizationId, knownId!))) throw accountExists(email);
    if (!membership) {
      if (!inProvenDomain(connection.provenDomains, email))
        throw forbidden(`${email} is not a member of this workspace and its domain is not one this workspace has proven`, 'sso_domain_not_allowed');
      // An account made elsewhere is not taken over by a workspace's IdP vouching for its address:
      // it joins by invitation first (then this sign-in links it).
      if (knownId) throw accountExists(email);
    }
    // A new account has no password: it signs in with SSO only.
    const userId = knownId ?? randomUUID();
    const createdUser = !knownId;
    if (createdUser)
      await trx('users').insert({
        id: userId,
        email,
        password_hash: null,
        verified: true,
        name: identity.name?.slice(0, 255) ?? null,
        provisioned_by_organization_id: connection.organizationId,
        created_at: now,
      });
    const role = membership?.role ?? connection.defaultRole;
    if (!membership) await trx('memberships').insert({ id: randomUUID(), organization_id: connection.organizationId, user_id: userId, role, created_at: now });
    // The IdP vouched for the address: an account that had not verified it has now.
    await trx('users').update({ verified: true }).where({ id: userId, email, verified: false });
    await linkIdentity(trx, userId, connection.organizationId, identity, email, now);
    return { userId, email, role, createdUser, joined: !membership };
  });
}

/** Records (or refreshes) the link from the IdP's subject to the account. */
async function linkIdentity(trx: Knex, userId: string, organizationId: string, identity: VerifiedIdentity, email: string, now: Date): Promise<void> {
  await trx('external_identities')
    .insert({
      id: randomUUID(),
      user_id: userId,
      organization_id: organizationId,
      protocol: identity.protocol,
      issuer: identity.issuer,
      subject: identity.subject,
      email,
      created_at: now,
      last_login_at: now,
    })
    .onConflict(['organization_id', 'issuer', 'subject'])
    .merge({ email, last_login_at: now });
}

/**
 * True when the person's membership here was made by this workspace's SCIM for an account it did
 * not make: an outside account adopted without its consent. SCIM refuses that now (docs/scim.md);
 * this catches the memberships it made before, which it wrote in the same transaction as its
 * `scim_users` row (one timestamp). A member who joined otherwise (before SCIM knew them, or by a
 * later invitation) has another time. SSO must not sign in or step up through such a membership.
 */
export async function adoptedByScim(db: Knex, organizationId: string, userId: string): Promise<boolean> {
  const row = await db('scim_users as s')
    .join('memberships as m', function () {
      this.on('m.user_id', 's.user_id').andOn('m.organization_id', 's.organization_id');
    })
    .join('users as u', 'u.id', 's.user_id')
    .where({ 's.organization_id': organizationId, 's.user_id': userId })
    .whereRaw('m.created_at = s.created_at')
    .whereRaw('u.provisioned_by_organization_id is distinct from s.organization_id')
    .first('s.user_id');
  return Boolean(row);
}

/** True when the IdP's subject is linked to this account in this workspace (a step-up must be the same person). */
export async function identityBelongsTo(db: Knex, organizationId: string, userId: string, identity: VerifiedIdentity): Promise<boolean> {
  return Boolean(
    await db('external_identities').where({ organization_id: organizationId, issuer: identity.issuer, subject: identity.subject, user_id: userId }).first('id'),
  );
}
