import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { isUuid } from '../../domain/ids';
import { knexOf } from '../../db/knex';
import { iso, millis } from '../../db/timestamps';
import type { Page } from './actor';
import { ScimError } from './errors';
import type { FilterAttribute } from './filter';
import { scimPageOf } from './page-query';
import type { ScimUserRecord } from './resources';

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
export const userRows = (db: Knex, organizationId: string) =>
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

export async function readUser(db: Knex, organizationId: string, userId: string): Promise<ScimUserRecord & { role: string | null }> {
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
  const { rows, total: n } = await scimPageOf<Row>(() => userRows(db, organizationId), page, {
    filter: USER_FILTER,
    columns: USER_COLUMNS,
    order: [{ column: 'u.email' }, { column: 'u.id' }],
  });
  return { users: rows.map(recordOf), total: Number(n) };
}
