import { randomUUID } from 'node:crypto';
import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { isUuid } from '../../domain/ids';
import { isUniqueViolation, knexOf } from '../../db/knex';
import { iso, millis } from '../../db/timestamps';
import { recordAudit } from '../audit';
import { removeMemberIn } from '../workspace/members';
import { ScimError } from './errors';
import { compileFilter, type FilterAttribute } from './filter';
import { applyUserPatch, fullName, type UserState } from './patch-user';
import type { ScimUserRecord } from './resources';
import type { PatchOperation, UserBody } from './schemas';
import { SCIM_ACTOR, SCIM_MEMBER_ROLE, type Page } from './actor';

/**
 * SCIM Users of one workspace: its members (active), and people SCIM deprovisioned who still
 * have a `scim_users` row (inactive: no membership, no sessions, no credentials here).
 */

const USER_FILTER: Record<string, FilterAttribute> = {
  id: { type: 'id', column: 'u.id' },
  username: { type: 'string', column: 'u.email', caseExact: false },
  'emails.value': { type: 'string', column: 'u.email', caseExact: false },
  displayname: { type: 'string', column: 'u.name', caseExact: false },
  'name.formatted': { type: 'string', column: 'u.name', caseExact: false },
  'name.givenname': { type: 'string', column: 's.given_name', caseExact: false },
  'name.familyname': { type: 'string', column: 's.family_name', caseExact: false },
  externalid: { type: 'string', column: 's.external_id', caseExact: true },
  active: { type: 'boolean', column: '(m.user_id is not null)' },
};

/** The workspace's SCIM users with what SCIM shows of them; `where` narrows it. */
const userRows = (db: Knex, organizationId: string) =>
  db('users as u')
    .leftJoin('memberships as m', function () {
      this.on('m.user_id', 'u.id').andOnVal('m.organization_id', organizationId);
    })
    .leftJoin('scim_users as s', function () {
      this.on('s.user_id', 'u.id').andOnVal('s.organization_id', organizationId);
    })
    // Driven by the workspace's own rows (memberships' and scim_users' keys), not a scan of every user.
    .whereIn(
      'u.id',
      db
        .select('user_id')
        .from('memberships')
        .where({ organization_id: organizationId })
        .union((q) => q.select('user_id').from('scim_users').where({ organization_id: organizationId })),
    );

const USER_COLUMNS = [
  'u.id',
  'u.email',
  'u.name',
  'm.role',
  'm.created_at as joined_at',
  's.external_id',
  's.given_name',
  's.family_name',
  's.created_at as scim_created_at',
  's.updated_at as scim_updated_at',
];

type Row = Record<string, unknown>;
type Stamp = Date | string | null;

function recordOf(r: Row): ScimUserRecord {
  const stamps = [r.joined_at as Stamp, r.scim_created_at as Stamp, r.scim_updated_at as Stamp].filter((s): s is Date | string => s !== null);
  const times = stamps.map(millis);
  return {
    id: r.id as string,
    email: r.email as string,
    name: (r.name as string | null) ?? null,
    givenName: (r.given_name as string | null) ?? null,
    familyName: (r.family_name as string | null) ?? null,
    externalId: (r.external_id as string | null) ?? null,
    active: r.role !== null && r.role !== undefined,
    created: iso(new Date(Math.min(...times))),
    lastModified: iso(new Date(Math.max(...times))),
  };
}

async function readUser(db: Knex, organizationId: string, userId: string): Promise<ScimUserRecord & { role: string | null }> {
  if (!isUuid(userId)) throw new ScimError(404, `User ${userId} not found`);
  const row = await userRows(db, organizationId).select(USER_COLUMNS).where({ 'u.id': userId }).first();
  if (!row) throw new ScimError(404, `User ${userId} not found`);
  return { ...recordOf(row), role: (row.role as string | null) ?? null };
}

/** One SCIM user of the workspace (404 when the person is neither a member nor known to SCIM here). */
export const getScimUser = (orm: MikroORM, organizationId: string, userId: string): Promise<ScimUserRecord> =>
  readUser(knexOf(orm), organizationId, userId).then(({ role: _role, ...record }) => record);

/** A page of the workspace's SCIM users by email, narrowed by a SCIM filter. */
export async function listScimUsers(orm: MikroORM, organizationId: string, page: Page): Promise<{ users: ScimUserRecord[]; total: number }> {
  const db = knexOf(orm);
  const condition = page.filter === undefined ? undefined : compileFilter(page.filter, USER_FILTER);
  const narrowed = () => {
    const q = userRows(db, organizationId);
    return condition ? q.andWhereRaw(`(${condition.sql})`, condition.bindings) : q;
  };
  const [{ n }] = await narrowed().count({ n: '*' });
  const rows =
    page.count === 0
      ? []
      : await narrowed()
          .select(USER_COLUMNS)
          .orderBy([{ column: 'u.email' }, { column: 'u.id' }])
          .limit(page.count)
          .offset(page.startIndex - 1);
  return { users: rows.map(recordOf), total: Number(n) };
}

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

/** Makes the person a member with the role provisioning gives, audited. */
async function admit(trx: Knex, organizationId: string, userId: string, email: string, now: Date): Promise<void> {
  await trx('memberships').insert({ id: randomUUID(), organization_id: organizationId, user_id: userId, role: SCIM_MEMBER_ROLE, created_at: now });
  await recordAudit(
    trx,
    { organizationId, actor: SCIM_ACTOR, action: 'member.provision', targetType: 'user', targetId: userId, details: { email, role: SCIM_MEMBER_ROLE } },
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

/** Writes the change from `before` to `after` (one transaction, the caller's). */
async function save(trx: Knex, organizationId: string, userId: string, before: UserState & { role: string | null }, after: UserState): Promise<void> {
  if (after.email !== before.email) throw new ScimError(400, 'userName (the sign-in email) cannot be changed by SCIM', 'mutability');
  const now = new Date();
  const name = fullName(after);
  if (name !== fullName(before)) await trx('users').update({ name }).where({ id: userId });
  if (before.active && !after.active) await deprovision(trx, organizationId, userId, before.email, before.role);
  if (!before.active && after.active) await admit(trx, organizationId, userId, before.email, now);
  const row = scimRow(organizationId, userId, after, now);
  await trx('scim_users').insert(row).onConflict(['organization_id', 'user_id']).merge(['external_id', 'given_name', 'family_name', 'active', 'updated_at']);
}

/**
 * Provisions a person: a new user (no password: they sign in through single sign-on) or an
 * existing Klaxon account (its profile left as is), made a member unless `active` is false.
 * 409 uniqueness when SCIM or the workspace already has them.
 */
export async function createScimUser(orm: MikroORM, organizationId: string, body: UserBody): Promise<ScimUserRecord> {
  const state = stateFromBody(body);
  const name = fullName(state);
  try {
    const userId = await knexOf(orm).transaction(async (trx) => {
      const now = new Date();
      let user = (await trx('users').select('id').where({ email: state.email }).first()) as { id: string } | undefined;
      if (user) {
        const known = await userRows(trx, organizationId).where({ 'u.id': user.id }).first('u.id');
        if (known) throw new ScimError(409, `a User with userName ${state.email} already exists in this workspace`, 'uniqueness');
      } else {
        user = { id: randomUUID() };
        await trx('users').insert({ id: user.id, email: state.email, name, verified: true, password_hash: null, created_at: now });
      }
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
