import { EntitySchema } from '@mikro-orm/core';

/**
 * The watchdog's canary (docs/reliability.md): one row, written only by
 * src/services/watchdog/canary-state.ts. Its workspace and source, the run one API process claimed
 * for this interval, and the last run whose page went out within the deadline.
 */
export interface WatchdogCanary {
  /** Always 1: there is one canary per installation. */
  id: number;
  organizationId: string;
  sourceId: string;
  runId: string | null;
  runStartedAt: Date | null;
  lastSuccessAt: Date | null;
  /** Milliseconds from the run's start to its page: how long the path took. */
  lastSuccessMs: number | null;
}

export const WatchdogCanarySchema = new EntitySchema<WatchdogCanary>({
  name: 'WatchdogCanary',
  tableName: 'watchdog_canary',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: false },
    organizationId: { type: 'uuid' },
    sourceId: { type: 'uuid' },
    runId: { type: 'uuid', nullable: true },
    runStartedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    lastSuccessAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    lastSuccessMs: { type: 'integer', nullable: true },
  },
  checks: [{ name: 'watchdog_canary_one_row_check', expression: '"id" = 1' }],
});
