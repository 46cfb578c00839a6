import { EntitySchema } from '@mikro-orm/core';

/** When a person is paged, contact them on this method this many seconds after the page. */
export interface NotificationRule {
  id: string;
  organizationId: string;
  userId: string;
  contactMethodId: string;
  delaySeconds: number;
  createdAt: Date;
}

export const NotificationRuleSchema = new EntitySchema<NotificationRule>({
  name: 'NotificationRule',
  tableName: 'notification_rules',
  uniques: [{ properties: ['contactMethodId', 'delaySeconds'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid', index: true },
    userId: { type: 'uuid', index: true },
    contactMethodId: { type: 'uuid', index: true },
    delaySeconds: { type: 'integer' },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
