import { EntitySchema } from '@mikro-orm/core';
import type { IncidentStatus } from '../../domain/incident-lifecycle';
import type { Severity } from '../../domain/severity';

/**
 * The queryable projection of an incident. The workflow owns the state; every write of this row
 * goes through src/services/incident/store.ts (opened by the API or ingestion, then moved by the
 * workflow's activities). `lastSeq` orders those writes (idempotent retries).
 */
export interface Incident {
  id: string;
  organizationId: string;
  number: number;
  serviceId: string | null;
  owningTeamId: string;
  title: string;
  description: string | null;
  severity: Severity;
  status: IncidentStatus;
  dedupKey: string | null;
  alertCount: number;
  lastSeq: number;
  createdAt: Date;
  acknowledgedAt: Date | null;
  resolvedAt: Date | null;
  closedAt: Date | null;
  /**
   * Set when ingestion queued the resolve of the incident's last active alert: from then on a
   * new firing of its key opens a new incident. Cleared by a reopen.
   */
  alertsClosedAt: Date | null;
  updatedAt: Date;
  /** The grouping rule and group key it was opened under (docs/grouping.md); null when none. */
  groupRule: string | null;
  groupKey: string | null;
  /** The alert source whose alert opened it (the storm guard counts these). */
  openedBySourceId: string | null;
  /** Set on a source's storm incident: the source's new alerts join it until the source is quiet. */
  stormSourceId: string | null;
}

export const IncidentSchema = new EntitySchema<Incident>({
  name: 'Incident',
  tableName: 'incidents',
  uniques: [{ properties: ['organizationId', 'number'] }],
  indexes: [
    { properties: ['serviceId', 'dedupKey'] },
    {
      name: 'incidents_org_created_idx',
      expression: 'create index "incidents_org_created_idx" on "incidents" ("organization_id", "created_at" desc, "id" desc)',
    },
    {
      name: 'incidents_org_status_created_idx',
      expression: 'create index "incidents_org_status_created_idx" on "incidents" ("organization_id", "status", "created_at" desc, "id" desc)',
    },
    // The retention purge: each workspace's CLOSED incidents by when they closed.
    {
      name: 'incidents_closed_at_idx',
      expression: `create index "incidents_closed_at_idx" on "incidents" ("organization_id", "closed_at") where "status" = 'CLOSED'`,
    },
    {
      name: 'incidents_group_idx',
      expression: 'create index "incidents_group_idx" on "incidents" ("service_id", "group_rule", "group_key", "created_at") where "group_key" is not null',
    },
    {
      name: 'incidents_opened_by_source_idx',
      expression: 'create index "incidents_opened_by_source_idx" on "incidents" ("opened_by_source_id", "created_at") where "opened_by_source_id" is not null',
    },
    {
      name: 'incidents_storm_source_idx',
      expression: 'create index "incidents_storm_source_idx" on "incidents" ("storm_source_id") where "storm_source_id" is not null',
    },
  ],
  properties: {
    id: { type: 'uuid', primary: true },
    organizationId: { type: 'uuid' },
    number: { type: 'integer' },
    serviceId: { type: 'uuid', nullable: true, index: true },
    owningTeamId: { type: 'uuid' },
    title: { type: 'string', length: 255 },
    description: { type: 'text', nullable: true },
    severity: { type: 'string', length: 16 },
    status: { type: 'string', length: 16 },
    dedupKey: { type: 'string', length: 255, nullable: true },
    alertCount: { type: 'integer', default: 0 },
    lastSeq: { type: 'integer', default: 0 },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    acknowledgedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    resolvedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    closedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    alertsClosedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
    groupRule: { type: 'string', length: 100, nullable: true },
    groupKey: { type: 'text', nullable: true },
    openedBySourceId: { type: 'uuid', nullable: true },
    stormSourceId: { type: 'uuid', nullable: true },
  },
});
