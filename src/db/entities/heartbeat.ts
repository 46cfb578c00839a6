import { EntitySchema } from '@mikro-orm/core';

/** A check-in URL that must be pinged every `periodSeconds` (plus grace), or an incident opens. */
export interface Heartbeat {
  id: string;
  organizationId: string;
  serviceId: string;
  name: string;
  tokenHash: string;
  periodSeconds: number;
  graceSeconds: number;
  status: 'ACTIVE' | 'PAUSED';
  lastPingAt: Date | null;
  createdAt: Date;
}

export const HeartbeatSchema = new EntitySchema<Heartbeat>({
  name: 'Heartbeat',
  tableName: 'heartbeats',
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid', index: true },
    serviceId: { type: 'uuid', index: true },
    name: { type: 'string', length: 255 },
    tokenHash: { type: 'string', length: 64, unique: true },
    periodSeconds: { type: 'integer' },
    graceSeconds: { type: 'integer' },
    status: { type: 'string', length: 16 },
    lastPingAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
