import { EntitySchema } from '@mikro-orm/core';

/** One check of a monitor: its result and latency, for uptime over 24 h / 7 d / 30 d. */
export interface MonitorCheck {
  id: string;
  monitorId: string;
  organizationId: string;
  checkedAt: Date;
  ok: boolean;
  statusCode: number | null;
  latencyMs: number | null;
  /** Why it failed: timeout, refused target, unexpected status, keyword missing, … */
  error: string | null;
}

export const MonitorCheckSchema = new EntitySchema<MonitorCheck>({
  name: 'MonitorCheck',
  tableName: 'monitor_checks',
  // checkedAt alone: retention deletes old checks of every monitor.
  indexes: [{ properties: ['monitorId', 'checkedAt'] }, { properties: ['checkedAt'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    monitorId: { type: 'uuid' },
    organizationId: { type: 'uuid' },
    checkedAt: { type: 'Date', columnType: 'timestamptz' },
    ok: { type: 'boolean' },
    statusCode: { type: 'integer', nullable: true },
    latencyMs: { type: 'integer', nullable: true },
    error: { type: 'text', nullable: true },
  },
});
