import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../src/db/knex';
import { openOrm } from '../../src/db/orm';
import { seedWorkspace, type SeededWorkspace } from './workspace';

let number = 0;

/**
 * An incident as ingestion leaves it for the relay: its projection and `events` pending outbox
 * rows, inserted in order (the first `opened`, the rest `attached`); with `createdEntry`, also
 * its `created` timeline entry.
 */
export async function incidentWithPending(
  orm: MikroORM,
  ws: SeededWorkspace,
  events: number,
  opts: { createdEntry?: boolean } = {},
): Promise<{ id: string; eventIds: string[] }> {
  const db = knexOf(orm);
  const id = randomUUID();
  const now = new Date();
  await db('incidents').insert({
    id,
    organization_id: ws.organizationId,
    number: ++number,
    service_id: ws.serviceId,
    owning_team_id: ws.teamId,
    title: `incident ${number}`,
    severity: 'HIGH',
    status: 'TRIGGERED',
    alert_count: events,
    last_seq: 1,
    created_at: now,
    updated_at: now,
  });
  if (opts.createdEntry) {
    await db('timeline_entries').insert({
      id: randomUUID(),
      incident_id: id,
      organization_id: ws.organizationId,
      seq: 1,
      type: 'created',
      actor_type: 'system',
      via: 'ingest',
      message: 'Incident opened',
      created_at: now,
    });
  }
  const eventIds = Array.from({ length: events }, () => randomUUID());
  // Every row of a group commit shares one created_at: only insertion order tells them apart.
  await db('ingest_outbox').insert(
    eventIds.map((event_id, i) => ({ id: randomUUID(), incident_id: id, event_id, kind: i ? 'attached' : 'opened', created_at: now })),
  );
  return { id, eventIds };
}

/**
 * A relay test file's Postgres (a pool of 4) and seeded workspace, opened before its tests and
 * closed after; `incidentWithPending` puts an incident with pending rows in that workspace.
 */
export function outboxFixture() {
  const held: { orm?: MikroORM; ws?: SeededWorkspace } = {};
  beforeAll(async () => {
    held.orm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 4);
    held.ws = await seedWorkspace(held.orm);
  });
  afterAll(() => held.orm?.close());
  const fixture = {
    get orm(): MikroORM {
      return held.orm!;
    },
    db: () => knexOf(held.orm!),
    incidentWithPending: (events: number) => incidentWithPending(held.orm!, held.ws!, events),
  };
  return fixture;
}
