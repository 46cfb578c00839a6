import { EntitySchema } from '@mikro-orm/core';

/** The routing boundary for alert sources; exactly one owning team. */
export interface Service {
  id: string;
  organizationId: string;
  teamId: string;
  name: string;
  description: string | null;
  /** Who is paged when an incident opens on this service (none: nobody). */
  escalationPolicyId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export const ServiceSchema = new EntitySchema<Service>({
  name: 'Service',
  tableName: 'services',
  indexes: [{ properties: ['organizationId', 'createdAt'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid' },
    teamId: { type: 'uuid', index: true },
    name: { type: 'string', length: 255 },
    description: { type: 'text', nullable: true },
    escalationPolicyId: { type: 'uuid', nullable: true, index: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
