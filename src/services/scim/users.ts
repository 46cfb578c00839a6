import { randomUUID } from 'node:crypto';
import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { isUuid } from '../../domain/ids';
import { isUniqueViolation, knexOf } from '../../db/knex';
import { recordAudit } from '../audit';
import { removeMemberIn } from '../workspace/members';
import type { Role } from '../../domain/roles';
import { emailDomain } from '../../domain/sso';
import { inProvenDomain } from '../sso/domains';
import { SCIM_ACTOR, SCIM_MEMBER_ROLE } from './actor';
import { ScimError } from './errors';
import { applyUserPatch, fullName, type UserState } from './patch-user';
import type { ScimUserRecord } from './resources';
import type { PatchOperation, UserBody } from './schemas';
import { getScimUser, readUser, userRows } from './user-records';

/** SCIM's changes to a workspace's people: provisioning, updates, deprovisioning (reads: user-records.ts). */

const stateOf = (u: ScimUserRecord): UserState => ({
  email: u.email,
  displayName: u.name,
  givenName: u.givenName,
  familyName: u.familyName,
  externalId: u.externalId,
  active: u.active,
});

/** What a POST or PUT body says the user is. */
function stateFromBody(body: UserBody, current?: UserState): UserState {
  return {
    email: body.userName,
    displayName: body.displayName ?? body.name?.formatted ?? null,
    givenName: body.name?.givenName ?? null,
    familyName: body.name?.familyName ?? null,
    externalId: body.externalId ?? null,
    active: body.active ?? current?.active ?? true,
  };
}

const scimRow = (organizationId: string, userId: string, s: UserState, now: Date) => ({
  organization_id: organizationId,
  user_id: userId,
  external_id: s.externalId,
  given_name: s.givenName,
  family_name: s.familyName,
  active: s.active,
  created_at: now,
  updated_at: now,
});

/**
 * Makes the person a member, audited: with the role single sign-on gives people it lets in
 * (`default_role` of `PUT /api/sso`), or Member when SSO is not set up.
 */
async function admit(trx: Knex, organizationId: string, userId: string, email: string, now: Date): Promise<void> {
  const sso = (await trx('sso_connections').select('default_role').where({ organization_id: organizationId }).first()) as { default_role: Role } | undefined;
  const role = sso?.default_role ?? SCIM_MEMBER_ROLE;
  await trx('memberships').insert({ id: randomUUID(), organization_id: organizationId, user_id: userId, role, created_at: now });
  await recordAudit(
    trx,
    { organizationId, actor: SCIM_ACTOR, action: 'member.provision', targetType: 'user', targetId: userId, details: { email, role } },
    now,
  );
}

/**
 * Deprovisioning: the member-removal path (membership, sessions here, API tokens and keys here,
 * team places) in this transaction. A Billing Owner is refused so a workspace keeps its owner.
 */
async function deprovision(trx: Knex, organizationId: string, userId: string, email: string, role: string | null): Promise<void> {
  if (role === null) return;
  if (role === 'BILLING_OWNER') {
    throw new ScimError(409, `${email} is a Billing Owner of this workspace: SCIM cannot deprovision a Billing Owner (change their role in Klaxon first)`);
  }
  await removeMemberIn(trx, { organizationId, role: 'ACCOUNT_ADMIN', audit: SCIM_ACTOR }, userId);
}

/**
 * Reactivation makes a member again only of an account this workspace's provisioning made (SCIM,
 * or a just-in-time SSO sign-in): one that joined by sign-up or invitation is the person's own, and
 * SCIM never adds an outside account (docs/scim.md), even one that was a member here before.
 */
async function assertMayReadmit(trx: Knex, organizationId: string, userId: string, email: string): Promise<void> {
  const user = (await trx('users').select('provisioned_by_organization_id').where({ id: userId }).first()) as
    { provisioned_by_organization_id: string | null } | undefined;
  if (user?.provisioned_by_organization_id !== organizationId)
    throw new ScimError(
      409,
      `${email} is a Klaxon account its owner made, not one this workspace provisioned: SCIM cannot make it a member again (invite it from Klaxon)`,
    );
}

/** Writes the change from `before` to `after` (one transaction, the caller's). */
async function save(trx: Knex, organizationId: string, userId: string, before: UserState & { role: string | null }, after: UserState): Promise<void> {
  if (after.email !== before.email) throw new ScimError(400, 'userName (the sign-in email) cannot be changed by SCIM', 'mutability');
  const now = new Date();
  const name = fullName(after);
  if (!before.active && after.active) await assertMayReadmit(trx, organizationId, userId, before.email);
  if (name !== fullName(before)) await trx('users').update({ name }).where({ id: userId });
  if (before.active && !after.active) await deprovision(trx, organizationId, userId, before.email, before.role);
  if (!before.active && after.active) await admit(trx, organizationId, userId, before.email, now);
  const row = scimRow(organizationId, userId, after, now);
  await trx('scim_users').insert(row).onConflict(['organization_id', 'user_id']).merge(['external_id', 'given_name', 'family_name', 'active', 'updated_at']);
}

/** The workspace's proven single sign-on domains (docs/sso.md): the only ones SCIM makes accounts in. */
const provenDomainsIn = async (trx: Knex, organizationId: string): Promise<string[]> =>
  (await trx('sso_domains').select('domain').where({ organization_id: organizationId }).whereNotNull('verified_at')).map((r: { domain: string }) => r.domain);

/**
 * Provisions a person: a new account (no password: they sign in through single sign-on) in one of
 * the workspace's proven domains, made a member unless `active` is false. Never an existing Klaxon
 * account: 409 uniqueness when SCIM or the workspace already has them, and when the account exists
 * outside this workspace (its owner joins by invitation); 400 invalidValue for an address outside
 * the proven domains. Nothing changes on a refusal.
 */
export async function createScimUser(orm: MikroORM, organizationId: string, body: UserBody): Promise<ScimUserRecord> {
  const state = stateFromBody(body);
  const name = fullName(state);
  try {
    const userId = await knexOf(orm).transaction(async (trx) => {
      const now = new Date();
      const existing = (await trx('users').select('id').where({ email: state.email }).first()) as { id: string } | undefined;
      if (existing) {
        const known = await userRows(trx, organizationId).where({ 'u.id': existing.id }).first('u.id');
        if (known) throw new ScimError(409, `a User with userName ${state.email} already exists in this workspace`, 'uniqueness');
        // Adopting it would let this workspace's IdP sign in as its owner (docs/security.md).
        throw new ScimError(
          409,
          `a Klaxon account with userName ${state.email} already exists outside this workspace: SCIM does not add existing accounts; invite it from Klaxon (once accepted, it is a User here)`,
          'uniqueness',
        );
      }
      if (!inProvenDomain(await provenDomainsIn(trx, organizationId), state.email))
        throw new ScimError(
          400,
          `userName: ${emailDomain(state.email) ?? state.email} is not a proven single sign-on domain of this workspace: list it and verify its DNS record in Klaxon (Single sign-on) first`,
          'invalidValue',
        );
      const user = { id: randomUUID() };
      await trx('users').insert({
        id: user.id,
        email: state.email,
        name,
        verified: true,
        password_hash: null,
        provisioned_by_organization_id: organizationId,
        created_at: now,
      });
      if (state.active) await admit(trx, organizationId, user.id, state.email, now);
      await trx('scim_users').insert(scimRow(organizationId, user.id, state, now));
      return user.id;
    });
    return getScimUser(orm, organizationId, userId);
  } catch (err) {
    // Two creations of the same address at once: the loser sees the winner's row.
    if (isUniqueViolation(err)) throw new ScimError(409, `a User with userName ${state.email} already exists in this workspace`, 'uniqueness');
    throw err;
  }
}

/** Locks the person's rows here so two changes to one user apply one after the other. */
async function lockedUser(trx: Knex, organizationId: string, userId: string) {
  if (isUuid(userId)) await trx('users').select('id').where({ id: userId }).forUpdate();
  const current = await readUser(trx, organizationId, userId);
  return { ...stateOf(current), role: current.role };
}

/** PUT: the body replaces what SCIM keeps (an absent `active` keeps the current one). */
export async function replaceScimUser(orm: MikroORM, organizationId: string, userId: string, body: UserBody): Promise<ScimUserRecord> {
  await knexOf(orm).transaction(async (trx) => {
    const before = await lockedUser(trx, organizationId, userId);
    await save(trx, organizationId, userId, before, stateFromBody(body, before));
  });
  return getScimUser(orm, organizationId, userId);
}

/** PATCH: the operations apply in order, all or none. */
export async function patchScimUser(orm: MikroORM, organizationId: string, userId: string, operations: PatchOperation[]): Promise<ScimUserRecord> {
  await knexOf(orm).transaction(async (trx) => {
    const before = await lockedUser(trx, organizationId, userId);
    await save(trx, organizationId, userId, before, applyUserPatch(before, operations));
  });
  return getScimUser(orm, organizationId, userId);
}

/** DELETE: deprovisions (as `active: false`) and forgets the SCIM record: the User is 404 afterwards. */
export async function deleteScimUser(orm: MikroORM, organizationId: string, userId: string): Promise<void> {
  await knexOf(orm).transaction(async (trx) => {
    const before = await lockedUser(trx, organizationId, userId);
    if (before.active) await deprovision(trx, organizationId, userId, before.email, before.role);
    await trx('scim_users').delete().where({ organization_id: organizationId, user_id: userId });
  });
}
