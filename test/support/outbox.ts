import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../src/db/knex';
import type { SeededWorkspace } from './workspace';

let number = 0;

/**
 * An incident as ingestion leaves it for the relay: its projection and `events` pending outbox
 * rows, inserted in order (the first `opened`, the rest `attached`); with `createdEntry`, also
 * its `created` timeline entry.
 */
export async function incidentWithPending(orm: MikroORM, ws: SeededWorkspace, events: number, opts: { createdEntry?: boolean } = {}): Promise<{ id: string; eventIds: string[] }> {
  const db = knexOf(orm);
  const id = randomUUID();
  const now = new Date();
  await db('incidents').insert({
    id, organization_id: ws.organizationId, number: ++number, service_id: ws.serviceId, owning_team_id: ws.teamId, title: `incident ${number}`,
    severity: 'HIGH', status: 'TRIGGERED', alert_count: events, last_seq: 1, created_at: now, updated_at: now,
  });
  if (opts.createdEntry) {
    await db('timeline_entries').insert({ id: randomUUID(), incident_id: id, organization_id: ws.organizationId, seq: 1, type: 'created', actor_type: 'system', via: 'ingest', message: 'Incident opened', created_at: now });
  }
  const eventIds = Array.from({ length: events }, () => randomUUID());
  // Every row of a group commit shares one created_at: only insertion order tells them apart.
  await db('ingest_outbox').insert(eventIds.map((event_id, i) => ({ id: randomUUID(), incident_id: id, event_id, kind: i ? 'attached' : 'opened', created_at: now })));
  return { id, eventIds };
}
