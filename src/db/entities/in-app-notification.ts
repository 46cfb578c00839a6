import { EntitySchema } from '@mikro-orm/core';

/** An in-app notification: what the dashboard's bell and unread count show. */
export interface InAppNotification {
  id: string;
  organizationId: string;
  userId: string;
  incidentId: string | null;
  title: string;
  body: string;
  readAt: Date | null;
  createdAt: Date;
}

export const InAppNotificationSchema = new EntitySchema<InAppNotification>({
  name: 'UserNotification',
  tableName: 'user_notifications',
  indexes: [{ properties: ['userId', 'readAt'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid' },
    userId: { type: 'uuid' },
    // Indexed for the retention purge, which deletes a purged incident's notifications.
    incidentId: { type: 'uuid', nullable: true, index: true },
    title: { type: 'text' },
    body: { type: 'text' },
    readAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
