import { EntitySchema } from '@mikro-orm/core';

/**
 * A what-if replay running now (docs/what-if.md, "Bounds"): at most two per workspace, whichever
 * API process runs them. Written only by src/services/paging/what-if-slots.ts; deleted when the
 * replay ends, and ignored once `expiresAt` passed (a process that died mid-replay).
 */
export interface WhatIfRun {
  id: string;
  organizationId: string;
  startedAt: Date;
  expiresAt: Date;
}

export const WhatIfRunSchema = new EntitySchema<WhatIfRun>({
  name: 'WhatIfRun',
  tableName: 'what_if_runs',
  indexes: [{ name: 'what_if_runs_organization_id_index', properties: ['organizationId'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid' },
    startedAt: { type: 'Date', columnType: 'timestamptz' },
    expiresAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
