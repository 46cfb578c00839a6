import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { createLogger } from '../../../src/logger';
import { OutboxRelay } from '../../../src/services/relay/relay';
import { repeatWaitMs } from '../../../src/services/relay/pacing';
import { fakeTemporal, rejectedError } from '../../support/fake-temporal';
import { outboxFixture } from '../../support/outbox';
import { sleep, waitFor } from '../../support/wait';

/**
 * The relay's batching, concurrency and failure rules, against the file's Postgres and a fake
 * Temporal client that records every signalWithStart (the real path is covered end to end in
 * test/integration/ingest/outbox-relay.test.ts).
 */
const fx = outboxFixture();
const { db, incidentWithPending } = fx;

/** One drain: kick, then stop (which waits for the pass to finish). */
async function drainOnce(temporal: Client): Promise<void> {
  const relay = new OutboxRelay({ orm: fx.orm, temporal, taskQueue: 'unused', logger: createLogger('silent') });
  relay.kick();
  await relay.stop();
}

const rowsOf = (incidentId: string) => db()('ingest_outbox').where({ incident_id: incidentId }).orderBy('seq');

describe('OutboxRelay', () => {
  it('when many incidents have pending events, then each gets its events in order in signals of at most 500, with at most 16 calls in flight', async () => {
    const small = await Promise.all(Array.from({ length: 40 }, () => incidentWithPending(3)));
    const big = await incidentWithPending(1200);
    const fake = fakeTemporal();
    await drainOnce(fake.client);

    const bigCalls = fake.calls.filter((c) => c.incidentId === big.id);
    expect(bigCalls.map((c) => c.eventIds.length)).toEqual([500, 500, 200]);
    expect(bigCalls.flatMap((c) => c.eventIds)).toEqual(big.eventIds);
    for (const s of small) expect(fake.calls.filter((c) => c.incidentId === s.id).map((c) => c.eventIds)).toEqual([s.eventIds]);
    expect(fake.maxInFlight()).toBeGreaterThan(1);
    expect(fake.maxInFlight()).toBeLessThanOrEqual(16);
    const pending = await db()('ingest_outbox')
      .whereIn('incident_id', [big.id, ...small.map((s) => s.id)])
      .whereNull('delivered_at');
    expect(pending).toHaveLength(0);
  });

  it("when a signal is refused, then its rows count an attempt and back off, the incident's later batches wait behind them, and other incidents are delivered", async () => {
    const broken = await incidentWithPending(1200);
    const other = await incidentWithPending(2);
    const failing = fakeTemporal({
      fail: (incidentId, call) => (incidentId === broken.id && call === 1 ? rejectedError(`signal ${call} refused`) : undefined),
    });
    await drainOnce(failing.client);

    expect(failing.signalsOf(broken.id).map((c) => c.eventIds)).toEqual([broken.eventIds.slice(0, 500)]);
    expect(failing.signalsOf(other.id).map((c) => c.eventIds)).toEqual([other.eventIds]);
    const rows = await rowsOf(broken.id);
    expect(rows.slice(0, 500).every((r) => r.delivered_at !== null && r.attempts === 0)).toBe(true);
    expect(
      rows
        .slice(500, 1000)
        .every((r) => r.delivered_at === null && r.attempts === 1 && r.next_attempt_at > r.created_at && /signal 1 refused/.test(r.last_error)),
    ).toBe(true);
    expect(rows.slice(1000).every((r) => r.delivered_at === null && r.attempts === 0 && r.last_error === null && r.next_attempt_at === null)).toBe(true);

    // Backing off (moved an hour out, so the check does not race the clock): a pass takes neither
    // the failed batch nor the one behind it.
    const backingOff = () => db()('ingest_outbox').where({ incident_id: broken.id }).whereNotNull('next_attempt_at');
    await backingOff().update({ next_attempt_at: db().raw(`now() + interval '1 hour'`) });
    const healthy = fakeTemporal();
    await drainOnce(healthy.client);
    expect(healthy.calls).toEqual([]);
    // Once due, the incident's remaining events go, in order; the first that failed goes alone,
    // so a single bad event would not take its batchmates with it.
    await backingOff().update({ next_attempt_at: db().raw(`now() - interval '1 second'`) });
    await drainOnce(healthy.client);
    expect(healthy.calls.map((c) => c.eventIds.length)).toEqual([1, 500, 199]);
    expect([...failing.calls, ...healthy.calls].filter((c) => c.incidentId === broken.id).flatMap((c) => c.eventIds)).toEqual(broken.eventIds);
    expect((await rowsOf(broken.id)).every((r) => r.delivered_at !== null)).toBe(true);
  });

  it('when the relay stops while an incident is held back, then no signal goes after stop() returns, even from a pass booked while stopping', async () => {
    const fake = fakeTemporal();
    const relay = new OutboxRelay({ orm: fx.orm, temporal: fake.client, taskQueue: 'unused', logger: createLogger('silent') });
    // A pass that signals 25 incidents books its next pass for when their wait (about a second)
    // is over; stopping while that pass is in flight must cancel the booking too.
    const busy = await Promise.all(Array.from({ length: 25 }, () => incidentWithPending(1)));
    relay.kick();
    await relay.stop();
    const stoppedAt = Date.now();
    expect(busy.every((b) => fake.calls.some((c) => c.incidentId === b.id))).toBe(true);
    await db()('ingest_outbox').insert({ id: randomUUID(), incident_id: busy[0].id, event_id: randomUUID(), kind: 'attached', created_at: new Date() });
    await sleep(repeatWaitMs(25) * 1.5);
    expect(fake.calls.filter((c) => c.at > stoppedAt)).toEqual([]);
    await db()('ingest_outbox').where({ incident_id: busy[0].id }).whereNull('delivered_at').update({ delivered_at: new Date() }); // leave nothing for the next test
  });

  it('when more incidents are busy, then a repeat signal waits longer, within bounds', () => {
    expect(repeatWaitMs(1)).toBe(100);
    expect(repeatWaitMs(10)).toBe(400);
    expect(repeatWaitMs(50)).toBe(2000);
    expect(repeatWaitMs(5000)).toBe(2000);
  });

  it('when an incident was signalled a moment ago, then its next attached events wait and travel together, while a new incident and a resolve go at once', async () => {
    const fake = fakeTemporal();
    const relay = new OutboxRelay({ orm: fx.orm, temporal: fake.client, taskQueue: 'unused', logger: createLogger('silent') });
    const { signalsOf } = fake;
    const add = (incidentId: string, kind: string) =>
      db()('ingest_outbox').insert({ id: randomUUID(), incident_id: incidentId, event_id: randomUUID(), kind, created_at: new Date() });
    try {
      // 26 busy incidents: a repeat signal waits about a second (repeatWaitMs), wide enough to see.
      const a = await incidentWithPending(1);
      const others = await Promise.all(Array.from({ length: 24 }, () => incidentWithPending(1)));
      relay.kick();
      await waitFor(async () => signalsOf(a.id).length === 1 && others.every((o) => signalsOf(o.id).length === 1), 5000, 'the opening signals');
      for (let i = 0; i < 3; i++) {
        await add(a.id, 'attached');
        relay.kick({ onlyIfDue: true }); // as ingestion does when nothing opened or resolved
      }
      const b = await incidentWithPending(1);
      relay.kick(); // a new incident: urgent
      await waitFor(async () => signalsOf(b.id).length === 1, 5000, 'the new incident');
      expect(signalsOf(a.id)).toHaveLength(1); // still held back
      const [second] = await waitFor(async () => (signalsOf(a.id).length === 2 ? signalsOf(a.id).slice(1) : undefined), 5000, 'the coalesced signal');
      expect(second.eventIds).toHaveLength(3); // the three attached events, one signal
      expect(second.at - signalsOf(a.id)[0].at).toBeGreaterThanOrEqual(repeatWaitMs(25) - 50);
      await add(a.id, 'attached');
      await add(a.id, 'resolved');
      relay.kick(); // a resolve: urgent, and its incident is not held back
      const [third] = await waitFor(async () => (signalsOf(a.id).length === 3 ? signalsOf(a.id).slice(2) : undefined), 5000, 'the resolve');
      expect(third.eventIds).toHaveLength(2);
      expect(third.at - second.at).toBeLessThan(repeatWaitMs(25) / 2);
    } finally {
      await relay.stop();
    }
  });
});
