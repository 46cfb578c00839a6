import { EntitySchema } from '@mikro-orm/core';

/** A customer's endpoint that receives incident events (docs/integrations.md). */
export interface OutgoingWebhook {
  id: string;
  organizationId: string;
  url: string;
  description: string | null;
  /** Null: every event type. */
  eventTypes: string[] | null;
  /** Null: every service. */
  serviceIds: string[] | null;
  enabled: boolean;
  /** The `whsec_` signing secret, sealed (AES-256-GCM under KLAXON_SECRET). */
  secretSealed: string;
  createdBy: string | null;
  /** When its deliveries started failing (cleared by a success): three days of it disables it. */
  failingSince: Date | null;
  /** Why the system disabled it (`gone`, `failing`), null when enabled or disabled by a person. */
  disabledReason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export const OutgoingWebhookSchema = new EntitySchema<OutgoingWebhook>({
  name: 'OutgoingWebhook',
  tableName: 'outgoing_webhooks',
  indexes: [{ name: 'outgoing_webhooks_organization_index', properties: ['organizationId'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid' },
    url: { type: 'text' },
    description: { type: 'text', nullable: true },
    eventTypes: { type: 'json', nullable: true },
    serviceIds: { type: 'json', nullable: true },
    enabled: { type: 'boolean', default: true },
    secretSealed: { type: 'text', lazy: true },
    createdBy: { type: 'uuid', nullable: true },
    failingSince: { type: 'Date', columnType: 'timestamptz', nullable: true },
    disabledReason: { type: 'text', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz', defaultRaw: 'now()' },
    updatedAt: { type: 'Date', columnType: 'timestamptz', defaultRaw: 'now()' },
  },
});
