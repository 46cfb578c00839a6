import { EntitySchema } from '@mikro-orm/core';

/** Where a service's incidents are posted in chat (docs/chat.md); no row: nowhere. */
export interface ServiceChatSettings {
  serviceId: string;
  organizationId: string;
  /** The Slack channel (`C…`) of the workspace's installation; null: none. */
  slackChannelId: string | null;
  slackChannelName: string | null;
  /** The Teams Workflows webhook URL, sealed: the URL is its own credential. Null: none. */
  teamsWebhookUrlSealed: string | null;
  updatedAt: Date;
}

export const ServiceChatSettingsSchema = new EntitySchema<ServiceChatSettings>({
  name: 'ServiceChatSettings',
  tableName: 'service_chat_settings',
  properties: {
    serviceId: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid', index: true },
    slackChannelId: { type: 'string', length: 32, nullable: true },
    slackChannelName: { type: 'string', length: 255, nullable: true },
    teamsWebhookUrlSealed: { type: 'text', nullable: true, lazy: true },
    updatedAt: { type: 'Date', columnType: 'timestamptz', defaultRaw: 'now()' },
  },
});
