import { EntitySchema } from '@mikro-orm/core';

/** One thing that happened to an incident, in order (`seq` is per incident); written only by src/services/incident/store.ts. */
export interface TimelineEntry {
  id: string;
  incidentId: string;
  organizationId: string;
  seq: number;
  type: string;
  fromStatus: string | null;
  toStatus: string | null;
  actorType: 'user' | 'system';
  actorId: string | null;
  via: string | null;
  message: string;
  /** The alert event this entry applied (created, attached, resolved by the sender), if any. */
  eventId: string | null;
  /** What the UI renders of paging entries (a `kind` and its fields); null for the others. */
  data: Record<string, unknown> | null;
  createdAt: Date;
}

export const TimelineEntrySchema = new EntitySchema<TimelineEntry>({
  name: 'TimelineEntry',
  tableName: 'timeline_entries',
  uniques: [{ properties: ['incidentId', 'seq'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    incidentId: { type: 'uuid' },
    organizationId: { type: 'uuid', index: true },
    seq: { type: 'integer' },
    type: { type: 'string', length: 32 },
    fromStatus: { type: 'string', length: 16, nullable: true },
    toStatus: { type: 'string', length: 16, nullable: true },
    actorType: { type: 'string', length: 16 },
    actorId: { type: 'uuid', nullable: true },
    via: { type: 'string', length: 32, nullable: true },
    message: { type: 'text' },
    eventId: { type: 'uuid', nullable: true },
    data: { type: 'json', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
