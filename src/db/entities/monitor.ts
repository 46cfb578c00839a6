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
  /** `ACTIVE` or `PAUSED`: whether it is checked at all. */
  status: string;
  /** HTTP method of the check. */
  method: string;
  timeoutSeconds: number;
  /** Status codes that count as up; null: any 2xx. */
  expectedStatusCodes: number[] | null;
  /** A string the body must contain to count as up. */
  keyword: string | null;
  /** Consecutive failed checks that open an incident. */
  failureThreshold: number;
  /** `PENDING` (never checked), `UP` or `DOWN`, from the checks. */
  state: string;
  consecutiveFailures: number;
  lastCheckedAt: Date | null;
  /** The incident the monitor opened and has not resolved yet. */
  openIncidentId: string | null;
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
    method: { type: 'string', length: 8, default: 'GET' },
    timeoutSeconds: { type: 'integer', default: 10 },
    expectedStatusCodes: { type: 'json', nullable: true },
    keyword: { type: 'text', nullable: true },
    failureThreshold: { type: 'integer', default: 3 },
    state: { type: 'string', length: 16, default: 'PENDING' },
    consecutiveFailures: { type: 'integer', default: 0 },
    lastCheckedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    openIncidentId: { type: 'uuid', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
