import { EntitySchema } from '@mikro-orm/core';
import type { Severity } from '../../domain/severity';

/** One received event, attached to the incident it was routed to. */
export interface Alert {
  id: string;
  organizationId: string;
  sourceId: string;
  serviceId: string;
  incidentId: string;
  dedupKey: string | null;
  title: string;
  message: string | null;
  description: string | null;
  severity: Severity;
  status: 'ACTIVE' | 'RESOLVED';
  /** The detected sender (`form-a`, `alertmanager`, …). */
  sender: string;
  metadata: Record<string, unknown>;
  /** Form B's key-value tags, shown on the alert and its incident. */
  tags: Record<string, string> | null;
  /** Form B's link to a related page. */
  url: string | null;
  createdAt: Date;
  resolvedAt: Date | null;
}

export const AlertSchema = new EntitySchema<Alert>({
  name: 'Alert',
  tableName: 'alerts',
  indexes: [
    { properties: ['serviceId', 'dedupKey'] },
    // A sender's resolve finds its active alerts, then whether their incident has any left:
    // partial, so an incident or source with a long resolved history costs nothing here.
    {
      name: 'alerts_active_source_key_idx',
      expression: 'create index "alerts_active_source_key_idx" on "alerts" ("source_id", "dedup_key") where "status" = \'ACTIVE\'',
    },
    // The grouping replay's range read (docs/grouping.md, "Replay").
    { name: 'alerts_service_created_idx', expression: 'create index "alerts_service_created_idx" on "alerts" ("service_id", "created_at")' },
    { name: 'alerts_active_incident_idx', expression: 'create index "alerts_active_incident_idx" on "alerts" ("incident_id") where "status" = \'ACTIVE\'' },
  ],
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid', index: true },
    sourceId: { type: 'uuid', index: true },
    serviceId: { type: 'uuid' },
    incidentId: { type: 'uuid', index: true },
    dedupKey: { type: 'string', length: 255, nullable: true },
    title: { type: 'string', length: 255 },
    message: { type: 'text', nullable: true },
    description: { type: 'text', nullable: true },
    severity: { type: 'string', length: 16 },
    status: { type: 'string', length: 16 },
    sender: { type: 'string', length: 32 },
    metadata: { type: 'json' },
    tags: { type: 'json', nullable: true },
    url: { type: 'text', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    resolvedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});
