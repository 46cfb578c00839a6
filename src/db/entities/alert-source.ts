import { EntitySchema } from '@mikro-orm/core';

/** An ingestion URL owned by a service; the secret in the URL is stored only as a hash. */
export interface AlertSource {
  id: string;
  organizationId: string;
  serviceId: string;
  name: string;
  tokenHash: string;
  status: 'ACTIVE' | 'REVOKED';
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
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    revokedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});
