import { EntitySchema } from '@mikro-orm/core';

/**
 * One change of an incident in the durable feed (docs/integrations.md), written by the incident
 * store in the change's transaction; consumers read it by (xid, seq). Never updated.
 */
export interface IncidentEventRow {
  /** Insertion order. */
  seq: bigint;
  /** The event's public id: a receiver's `webhook-id`. */
  id: string;
  /** The writing transaction (xid8): what lets a consumer never skip a row that commits late. */
  xid: string;
  organizationId: string;
  incidentId: string;
  type: string;
  /** The incident row right after the change. */
  incident: Record<string, unknown>;
  actor: Record<string, unknown> | null;
  data: Record<string, unknown>;
  createdAt: Date;
}

export const IncidentEventSchema = new EntitySchema<IncidentEventRow>({
  name: 'IncidentEvent',
  tableName: 'incident_events',
  indexes: [
    { name: 'incident_events_position_index', properties: ['xid', 'seq'] },
    { name: 'incident_events_incident_index', properties: ['incidentId', 'seq'] },
    { name: 'incident_events_created_index', properties: ['createdAt'] },
  ],
  properties: {
    seq: { type: 'bigint', primary: true, autoincrement: true },
    id: { type: 'uuid', unique: true },
    xid: { type: 'string', columnType: 'xid8', defaultRaw: 'pg_current_xact_id()' },
    organizationId: { type: 'uuid' },
    incidentId: { type: 'uuid' },
    type: { type: 'text' },
    incident: { type: 'json' },
    actor: { type: 'json', nullable: true },
    data: { type: 'json', defaultRaw: `'{}'` },
    createdAt: { type: 'Date', columnType: 'timestamptz', defaultRaw: 'now()' },
  },
});
