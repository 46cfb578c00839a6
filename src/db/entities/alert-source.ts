import { EntitySchema } from '@mikro-orm/core';

/** An ingestion URL owned by a service; the secret in the URL is stored only as a hash. */
export interface AlertSource {
  id: string;
  organizationId: string;
  serviceId: string;
  name: string;
  tokenHash: string;
  status: 'ACTIVE' | 'REVOKED';
  /**
   * Form B: page these channels (sms, voice, email, push) by the severity default table
   * instead of the service's escalation policy; null pages by policy.
   */
  channels: string[] | null;
  createdAt: Date;
  revokedAt: Date | null;
}

export const AlertSourceSchema = new EntitySchema<AlertSource>({
  name: 'AlertSource',
  tableName: 'alert_sources',
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid', index: true },
    serviceId: { type: 'uuid', index: true },
    name: { type: 'string', length: 255 },
    tokenHash: { type: 'string', length: 64, unique: true },
    status: { type: 'string', length: 16, default: 'ACTIVE' },
    channels: { type: 'json', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    revokedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});
