import { EntitySchema } from '@mikro-orm/core';

/**
 * Where a service's incidents are posted in one chat provider (docs/chat.md); no row: not there.
 * Written only by src/services/chat/service-chat.ts.
 */
export interface ServiceChatDestination {
  serviceId: string;
  /** The provider's registry key (`slack`, `microsoft-teams`, `discord`, …). */
  provider: string;
  organizationId: string;
  /** The provider's non-secret settings (a Slack channel's id and name). */
  settings: Record<string, unknown>;
  /** Its secret settings, each value sealed on its own (`{"webhook_url": "v1.…"}`); null: none. */
  secretsSealed: Record<string, string> | null;
  createdAt: Date;
  updatedAt: Date;
}

export const ServiceChatDestinationSchema = new EntitySchema<ServiceChatDestination>({
  name: 'ServiceChatDestination',
  tableName: 'service_chat_destinations',
  properties: {
    serviceId: { type: 'uuid', primary: true },
    provider: { type: 'string', length: 64, primary: true, index: true },
    organizationId: { type: 'uuid', index: true },
    settings: { type: 'json' },
    secretsSealed: { type: 'json', nullable: true, lazy: true },
    createdAt: { type: 'Date', columnType: 'timestamptz', defaultRaw: 'now()' },
    updatedAt: { type: 'Date', columnType: 'timestamptz', defaultRaw: 'now()' },
  },
});
