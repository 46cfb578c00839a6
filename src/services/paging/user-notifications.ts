import type { MikroORM } from '@mikro-orm/postgresql';
import { isUuid } from '../../domain/ids';
import { knexOf } from '../../db/knex';
import { invalid } from '../errors';

/** In-app notifications: one per page a person received; the dashboard's bell reads these. */
export interface UserNotificationJson {
  id: string;
  incident_id: string | null;
  title: string;
  body: string;
  read: boolean;
  created_at: string;
}

/** A person's notifications, newest first. */
export async function listUserNotifications(orm: MikroORM, input: { userId: string; unreadOnly?: boolean; limit?: number }): Promise<UserNotificationJson[]> {
  if (!isUuid(input.userId)) throw invalid('user id must be a UUID');
  const query = knexOf(orm)('user_notifications').select('id', 'incident_id', 'title', 'body', 'read_at', 'created_at').where({ user_id: input.userId });
  if (input.unreadOnly) query.whereNull('read_at');
  const rows = await query.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(Math.min(Math.max(input.limit ?? 50, 1), 200));
  return rows.map((r) => ({ id: r.id, incident_id: r.incident_id, title: r.title, body: r.body, read: r.read_at !== null, created_at: new Date(r.created_at).toISOString() }));
}

/** How many of a person's notifications are unread. */
export async function unreadCount(orm: MikroORM, userId: string): Promise<number> {
  if (!isUuid(userId)) throw invalid('user id must be a UUID');
  const [{ n }] = await knexOf(orm)('user_notifications').count({ n: '*' }).where({ user_id: userId }).whereNull('read_at');
  return Number(n);
}

/** Marks some (or, without ids, all) of a person's notifications read; returns how many changed. */
export async function markNotificationsRead(orm: MikroORM, input: { userId: string; ids?: string[] }): Promise<number> {
  if (!isUuid(input.userId)) throw invalid('user id must be a UUID');
  if (input.ids?.some((id) => !isUuid(id))) throw invalid('notification ids must be UUIDs');
  const query = knexOf(orm)('user_notifications').where({ user_id: input.userId }).whereNull('read_at');
  if (input.ids) query.whereIn('id', input.ids);
  return query.update({ read_at: new Date() });
}
