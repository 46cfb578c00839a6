import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import type { Role } from '../../domain/roles';
import {
  effectiveNotificationPreferences,
  NOTIFICATION_PREFERENCE_KEYS,
  normaliseTimeZone,
  USER_NAME,
  type NotificationPreferences,
} from '../../domain/user-profile';
import { knexOf } from '../../db/knex';
import { iso } from '../../db/timestamps';
import { invalid, notFound } from '../errors';

/**
 * Users as members of a workspace, and their profiles. This module is the one writer of the
 * users table's profile fields (name, time_zone, notification_preferences); it never reads or
 * returns the password hash, tokens, keys or contact addresses.
 */

/** A user as a member of one workspace. */
export interface MemberProfile {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  /** IANA zone; null means UTC. */
  time_zone: string | null;
  verified: boolean;
  notification_preferences: NotificationPreferences;
  teams: Array<{ id: string; name: string }>;
  created_at: string;
}

/** A profile change: an absent field is left alone; `null` clears name or time zone. */
export interface ProfilePatch {
  name?: string | null;
  timeZone?: string | null;
  /** Merged into what is stored: keys not sent keep their value. */
  notificationPreferences?: Partial<NotificationPreferences>;
}

const PROFILE_COLUMNS = ['u.id', 'u.email', 'u.name', 'u.time_zone', 'u.verified', 'u.notification_preferences', 'u.created_at', 'm.role'];

const membersOf = (knex: Knex, organizationId: string) =>
  knex('users as u').join('memberships as m', 'm.user_id', 'u.id').where({ 'm.organization_id': organizationId });

/** Each user's teams in this workspace, by name. */
async function teamsOf(knex: Knex, organizationId: string, userIds: string[]): Promise<Map<string, Array<{ id: string; name: string }>>> {
  const byUser = new Map<string, Array<{ id: string; name: string }>>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return byUser;
  const rows = await knex('team_members as tm')
    .join('teams as t', 't.id', 'tm.team_id')
    .select('tm.user_id', 't.id', 't.name')
    .where({ 't.organization_id': organizationId })
    .whereIn('tm.user_id', userIds)
    .orderBy([{ column: 't.name' }, { column: 't.id' }]);
  for (const r of rows) byUser.get(r.user_id as string)?.push({ id: r.id as string, name: r.name as string });
  return byUser;
}

type ProfileRow = Record<string, unknown>;

const profileOf = (r: ProfileRow, teams: Array<{ id: string; name: string }>): MemberProfile => ({
  id: r.id as string,
  email: r.email as string,
  name: (r.name as string | null) ?? null,
  role: r.role as Role,
  time_zone: (r.time_zone as string | null) ?? null,
  verified: Boolean(r.verified),
  notification_preferences: effectiveNotificationPreferences(r.notification_preferences),
  teams,
  created_at: iso(r.created_at as Date | string),
});

async function readMember(knex: Knex, organizationId: string, userId: string): Promise<MemberProfile> {
  const row = await membersOf(knex, organizationId).select(PROFILE_COLUMNS).where({ 'u.id': userId }).first();
  if (!row) throw notFound(`user ${userId} is not a member of this workspace`);
  return profileOf(row, (await teamsOf(knex, organizationId, [userId])).get(userId) ?? []);
}

/** A member of the workspace as that workspace sees them. */
export async function getMemberProfile(orm: MikroORM, organizationId: string, userId: string): Promise<MemberProfile> {
  return readMember(knexOf(orm), organizationId, userId);
}

/** A page of the workspace's members, by email; `total` counts them all. */
export async function listMemberProfiles(orm: MikroORM, organizationId: string, page: { limit: number; offset: number }) {
  const knex = knexOf(orm);
  const [rows, counted] = await Promise.all([
    membersOf(knex, organizationId)
      .select(PROFILE_COLUMNS)
      .orderBy([{ column: 'u.email' }, { column: 'u.id' }])
      .limit(page.limit)
      .offset(page.offset),
    membersOf(knex, organizationId).count({ n: '*' }),
  ]);
  const teams = await teamsOf(
    knex,
    organizationId,
    rows.map((r) => r.id as string),
  );
  return { users: rows.map((r) => profileOf(r, teams.get(r.id as string) ?? [])), total: Number(counted[0].n) };
}

/** Checks a patch whatever surface it came from, and returns the columns to write. */
function columnsOf(patch: ProfilePatch): { set: Record<string, unknown>; preferences?: Partial<NotificationPreferences> } {
  const set: Record<string, unknown> = {};
  if (patch.name !== undefined) {
    const name = patch.name === null ? null : patch.name.trim();
    if (name !== null && (name.length < USER_NAME.min || name.length > USER_NAME.max)) {
      throw invalid(`name must be ${USER_NAME.min} to ${USER_NAME.max} characters (null clears it)`);
    }
    set.name = name;
  }
  if (patch.timeZone !== undefined) {
    const zone = patch.timeZone === null ? null : normaliseTimeZone(patch.timeZone);
    if (zone === undefined) throw invalid(`time_zone: unknown time zone ${JSON.stringify(patch.timeZone)}; use an IANA name such as Europe/Berlin or UTC`);
    set.time_zone = zone;
  }
  let preferences: Partial<NotificationPreferences> | undefined;
  if (patch.notificationPreferences !== undefined) {
    preferences = {};
    for (const [key, value] of Object.entries(patch.notificationPreferences)) {
      if (!(NOTIFICATION_PREFERENCE_KEYS as readonly string[]).includes(key)) throw invalid(`notification_preferences: unknown preference "${key}"`);
      if (typeof value !== 'boolean') throw invalid(`notification_preferences.${key} must be true or false`);
      preferences[key as keyof NotificationPreferences] = value;
    }
  }
  if (Object.keys(set).length === 0 && preferences === undefined) throw invalid('send at least one of name, time_zone, notification_preferences');
  return { set, preferences };
}

/**
 * Changes a member's own profile and answers it as changed. Preferences are merged in the same
 * statement (jsonb `||`), so two concurrent changes to different preferences both stay.
 */
export async function updateMemberProfile(orm: MikroORM, organizationId: string, userId: string, patch: ProfilePatch): Promise<MemberProfile> {
  const { set, preferences } = columnsOf(patch);
  return knexOf(orm).transaction(async (trx) => {
    const member = await trx('memberships').select('user_id').where({ organization_id: organizationId, user_id: userId }).first();
    if (!member) throw notFound(`user ${userId} is not a member of this workspace`);
    const update: Record<string, unknown> = { ...set };
    if (preferences !== undefined) {
      update.notification_preferences = trx.raw(
        `(case when jsonb_typeof(notification_preferences) = 'object' then notification_preferences else '{}'::jsonb end) || ?::jsonb`,
        [JSON.stringify(preferences)],
      );
    }
    await trx('users').update(update).where({ id: userId });
    return readMember(trx, organizationId, userId);
  });
}
