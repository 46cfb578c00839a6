import { EntitySchema } from '@mikro-orm/core';

/** A synthetic check (HTTP, TCP, …) on a service; read-only through the customer API. */
export interface Monitor {
  id: string;
  organizationId: string;
  serviceId: string;
  name: string;
  type: string;
  target: string;
  intervalSeconds: number;
  status: string;
  createdAt: Date;
  updatedAt: Date;
}

export const MonitorSchema = new EntitySchema<Monitor>({
  name: 'Monitor',
  tableName: 'monitors',
  indexes: [{ properties: ['organizationId', 'createdAt'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid' },
    serviceId: { type: 'uuid', index: true },
    name: { type: 'string', length: 255 },
    type: { type: 'string', length: 32 },
    target: { type: 'text' },
    intervalSeconds: { type: 'integer' },
    status: { type: 'string', length: 16 },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
