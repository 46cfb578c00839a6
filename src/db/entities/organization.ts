import { EntitySchema } from '@mikro-orm/core';
import type { Plan } from '../../domain/plans';

/** A workspace. `incidentSeq` hands out per-workspace incident numbers. */
export interface Organization {
  id: string;
  name: string;
  plan: Plan;
  incidentSeq: number;
  /** The watchdog's canary workspace (docs/reliability.md): its pages go to nobody; never a customer's. */
  canary: boolean;
  createdAt: Date;
}

export const OrganizationSchema = new EntitySchema<Organization>({
  name: 'Organization',
  tableName: 'organizations',
  properties: {
    id: { type: 'uuid', primary: true },
    name: { type: 'string', length: 255 },
    plan: { type: 'string', length: 16 },
    incidentSeq: { type: 'integer', default: 0 },
    canary: { type: 'boolean', default: false },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
