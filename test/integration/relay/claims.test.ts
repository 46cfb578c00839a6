import type { MikroORM } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import { openOrm } from '../../../src/db/orm';
import { createLogger } from '../../../src/logger';
import { knexOf } from '../../../src/db/knex';
import { OutboxRelay } from '../../../src/services/relay/relay';
import { fakeTemporal, type RecordedSignal } from '../../support/fake-temporal';
import { incidentWithPending as pendingIncident } from '../../support/outbox';
import { waitFor } from '../../support/wait';
import { seedWorkspace, type SeededWorkspace } from '../../support/workspace';

/**
 * Several relays on one database (several API processes): each row is claimed by one pass, so it
 * is signalled once, and an incident's rows still land in order. Two OutboxRelay instances, each
 * on its own connection pool, against fake Temporal clients that record what landed.
 */
let ormA: MikroORM;
let ormB: MikroORM;
let ws: SeededWorkspace;
beforeAll(async () => {
  ormA = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 4);
  ormB = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 4);
  ws = await seedWorkspace(ormA);
});
afterAll(async () => {
  await ormA.close();
  await ormB.close();
});

const db = () => knexOf(ormA);
const incidentWithPending = (events: number) => pendingIncident(ormA, ws, events);
const relayOn = (orm: MikroORM, temporal: Client, batchSize?: number) =>
  new OutboxRelay({ orm, temporal, taskQueue: 'unused', logger: createLogger('silent'), batchSize });
const undelivered = async (incidentIds: string[]) =>
  Number((await db()('ingest_outbox').whereIn('incident_id', incidentIds).whereNull('delivered_at').count({ n: '*' }))[0].n);

/** One drain of a relay: kick, then stop (which waits for the pass in flight). */
async function drainOnce(relay: OutboxRelay): Promise<void> {
  relay.kick();
  await relay.stop();
}

/** An incident's events as they landed across relays, in landing order. */
const landed = (incidentId: string, ...calls: RecordedSignal[][]) =>
  calls
    .flat()
    .filter((c) => c.incidentId === incidentId)
    .sort((x, y) => x.at - y.at)
    .flatMap((c) => c.eventIds);

describe('two relays on one database', () => {
  it('when two relays drain the same rows at once, then each row is signalled exactly once, by one of them, and every incident gets its events in order', async () => {
    const incidents = [
      ...(await Promise.all(Array.from({ length: 30 }, () => incidentWithPending(5)))),
      await incidentWithPending(300),
      await incidentWithPending(300),
    ];
    // A holds its first signal until B has delivered something: both take part, whatever the timing.
    let bLanded!: () => void;
    const bHasDelivered = new Promise<void>((r) => (bLanded = r));
    let first = true;
    const a = fakeTemporal({ hold: () => (first ? ((first = false), bHasDelivered) : undefined) });
    const b = fakeTemporal();
    const relayA = relayOn(ormA, a.client, 40);
    const relayB = relayOn(ormB, b.client, 40);
    relayA.start(100);
    await waitFor(async () => a.attempts.length > 0, 10_000, 'A to hold its first claim');
    relayB.start(100);
    await waitFor(async () => b.calls.length > 0, 10_000, "B to deliver around A's claim");
    bLanded();
    await waitFor(async () => (await undelivered(incidents.map((i) => i.id))) === 0, 60_000, 'both relays to drain the outbox');
    await relayA.stop();
    await relayB.stop();

    const signalled = [...a.calls, ...b.calls].flatMap((c) => c.eventIds);
    const expected = incidents.flatMap((i) => i.eventIds);
    expect(signalled).toHaveLength(expected.length);
    expect(new Set(signalled)).toEqual(new Set(expected));
    expect(a.calls.length).toBeGreaterThan(0);
    expect(b.calls.length).toBeGreaterThan(0);
    for (const incident of incidents) expect(landed(incident.id, a.calls, b.calls)).toEqual(incident.eventIds);
  });

  it("when another relay holds an incident's first rows, then this relay delivers other incidents but not that incident's later rows, which land after the first ones", async () => {
    const held = await incidentWithPending(3);
    const other = await incidentWithPending(2);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const a = fakeTemporal({ hold: (incidentId) => (incidentId === held.id ? gate : undefined) });
    const relayA = relayOn(ormA, a.client, 2); // claims the held incident's first two rows only
    relayA.kick();
    await waitFor(async () => a.attempts.some((c) => c.incidentId === held.id), 10_000, 'A to signal the held incident');

    const b = fakeTemporal();
    await drainOnce(relayOn(ormB, b.client));
    expect(b.signalsOf(other.id).map((c) => c.eventIds)).toEqual([other.eventIds]);
    expect(b.signalsOf(held.id)).toEqual([]); // its third row waits behind the two A holds
    expect((await db()('ingest_outbox').where({ incident_id: held.id }).whereNull('delivered_at')).map((r) => r.event_id)).toEqual(held.eventIds);

    release();
    await relayA.stop();
    const b2 = fakeTemporal(); // takes the third row, unless A's next pass already did
    await drainOnce(relayOn(ormB, b2.client));
    expect(landed(held.id, a.calls, b.calls, b2.calls)).toEqual(held.eventIds);
    expect(a.signalsOf(held.id)[0].eventIds).toEqual(held.eventIds.slice(0, 2));
    expect(await undelivered([held.id, other.id])).toBe(0);
  });

  it('when a relay dies mid-pass (its database session ends while it signals), then its claim rolls back and the other relay delivers those rows', async () => {
    const orphaned = await incidentWithPending(3);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const a = fakeTemporal({ hold: (incidentId) => (incidentId === orphaned.id ? gate : undefined) });
    const relayA = relayOn(ormA, a.client);
    relayA.kick();
    await waitFor(async () => a.attempts.some((c) => c.incidentId === orphaned.id), 10_000, 'A to signal');

    const b = fakeTemporal();
    await drainOnce(relayOn(ormB, b.client));
    expect(b.signalsOf(orphaned.id)).toEqual([]); // A's claim is still held

    // The process is gone: Postgres ends its session, which rolls the claim back.
    const killed = await db().raw(
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and state = 'idle in transaction' and query ilike '%skip locked%'`,
    );
    expect(killed.rows).toHaveLength(1);
    await waitFor(
      async () => {
        await drainOnce(relayOn(ormB, b.client));
        return b.signalsOf(orphaned.id).length > 0;
      },
      10_000,
      'B to deliver the rows A lost',
    );
    expect(b.signalsOf(orphaned.id).map((c) => c.eventIds)).toEqual([orphaned.eventIds]);
    expect(await undelivered([orphaned.id])).toBe(0);

    release(); // A's pass finds its session gone and fails; nothing it does may undo B's delivery
    await relayA.stop();
    expect(await undelivered([orphaned.id])).toBe(0);
  });
});
