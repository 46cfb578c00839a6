/**
 * In-app notifications (`user_notifications`): the dashboard's bell, one per page a person
 * received, read and marked read here; written once per page by the send activity. Not the
 * pages themselves (`notifications`, ./pages.ts).
 */
import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { isUuid } from '../../domain/ids';
import { knexOf } from '../../db/knex';
import { invalid } from '../errors';

/** In-app notifications: one per page a person received; the dashboard's bell reads these. */
export interface InAppNotificationJson {
  id: string;
  incident_id: string | null;
  /** The incident's number and title in its workspace; null once the incident is gone (retention). */
  incident: { id: string; number: number; title: string } | null;
  title: string;
  body: string;
  read: boolean;
  created_at: string;
}

/** Whose notifications: a person, and (from the dashboard) only those of their session's workspace. */
export interface InAppNotificationOwner {
  userId: string;
  organizationId?: string;
}

/** The where-clause of an owner's rows (columns prefixed with `prefix`, e.g. `n.`). */
function ownedBy(owner: InAppNotificationOwner, prefix = ''): Record<string, string> {
  if (!isUuid(owner.userId)) throw invalid('user id must be a UUID');
  if (owner.organizationId !== undefined && !isUuid(owner.organizationId)) throw invalid('organization id must be a UUID');
  const where: Record<string, string> = { [`${prefix}user_id`]: owner.userId };
  if (owner.organizationId !== undefined) where[`${prefix}organization_id`] = owner.organizationId;
  return where;
}

/** A person's notifications, newest first, a page at a time (at most 200). */
export async function listInAppNotifications(
  orm: MikroORM,
  input: InAppNotificationOwner & { unreadOnly?: boolean; limit?: number; offset?: number },
): Promise<InAppNotificationJson[]> {
  const query = knexOf(orm)('user_notifications as n')
    .leftJoin('incidents as i', function () {
      this.on('i.id', 'n.incident_id').andOn('i.organization_id', 'n.organization_id');
    })
    .select(
      'n.id',
      'n.incident_id',
      'n.title',
      'n.body',
      'n.read_at',
      'n.created_at',
      'i.number as incident_number',
      'i.title as incident_title',
      'i.id as incident_found',
    )
    .where(ownedBy(input, 'n.'));
  if (input.unreadOnly) query.whereNull('n.read_at');
  const rows = await query
    .orderBy([
      { column: 'n.created_at', order: 'desc' },
      { column: 'n.id', order: 'desc' },
    ])
    .limit(Math.min(Math.max(input.limit ?? 50, 1), 200))
    .offset(Math.max(input.offset ?? 0, 0));
  return rows.map((r) => ({
    id: r.id,
    incident_id: r.incident_id,
    incident: r.incident_found ? { id: r.incident_found, number: r.incident_number, title: r.incident_title } : null,
    title: r.title,
    body: r.body,
    read: r.read_at !== null,
    created_at: new Date(r.created_at).toISOString(),
  }));
}

/** How many of a person's notifications there are (`unreadOnly`: unread ones). */
export async function countInAppNotifications(orm: MikroORM, input: InAppNotificationOwner & { unreadOnly?: boolean }): Promise<number> {
  const query = knexOf(orm)('user_notifications').count({ n: '*' }).where(ownedBy(input));
  if (input.unreadOnly) query.whereNull('read_at');
  const [{ n }] = await query;
  return Number(n);
}

/** How many of a person's notifications are unread (only those of `organizationId`, when given). */
export async function unreadCount(orm: MikroORM, userId: string, organizationId?: string): Promise<number> {
  return countInAppNotifications(orm, { userId, organizationId, unreadOnly: true });
}

/** Marks some (or, without ids, all) of a person's notifications read; returns how many changed. */
export async function markInAppNotificationsRead(orm: MikroORM, input: InAppNotificationOwner & { ids?: string[] }): Promise<number> {
  const owner = ownedBy(input);
  if (input.ids?.some((id) => !isUuid(id))) throw invalid('notification ids must be UUIDs');
  const query = knexOf(orm)('user_notifications').where(owner).whereNull('read_at');
  if (input.ids) query.whereIn('id', input.ids);
  return query.update({ read_at: new Date() });
}

/**
 * The in-app notification as a common table expression another writer's statement carries (the
 * page's timeline entry: one round trip for both); idempotent, like recordInAppNotification.
 */
export function inAppNotificationCte(
  input: { notificationId: string; incidentId: string; userId: string },
  incident: { organization_id: string; number: number; title: string; severity: string },
): { sql: string; bindings: unknown[] } {
  return {
    sql: `in_app_notification as (
       insert into user_notifications (id, organization_id, user_id, incident_id, title, body, read_at, created_at)
       values (?, ?, ?, ?, ?, ?, null, ?) on conflict (id) do nothing returning id
     )`,
    bindings: [
      input.notificationId,
      incident.organization_id,
      input.userId,
      input.incidentId,
      `#${incident.number} ${String(incident.title).slice(0, 200)}`,
      `${incident.severity} incident triggered`,
      new Date(),
    ],
  };
}

/** The in-app notification a page to a person leaves (the bell); idempotent: one per page. */
export async function recordInAppNotification(
  k: Knex,
  input: { notificationId: string; incidentId: string; userId: string },
  incident: { organization_id: string; number: number; title: string; severity: string },
): Promise<void> {
  await k('user_notifications')
    .insert({
      id: input.notificationId,
      organization_id: incident.organization_id,
      user_id: input.userId,
      incident_id: input.incidentId,
      title: `#${incident.number} ${String(incident.title).slice(0, 200)}`,
      body: `${incident.severity} incident triggered`,
      read_at: null,
      created_at: new Date(),
    })
    .onConflict('id')
    .ignore();
}
