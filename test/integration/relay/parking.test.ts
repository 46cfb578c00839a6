import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { createLogger } from '../../../src/logger';
import { MAX_ATTEMPTS, OutboxRelay, outboxHealth } from '../../../src/services/relay';
import { klaxon } from '../../support/cli';
import { fakeTemporal, outageError, rejectedError } from '../../support/fake-temporal';
import { outboxFixture } from '../../support/outbox';

/**
 * Messages that keep failing: refused ones back off and are parked (dead letters) while other
 * incidents keep flowing; outages count nothing; `klaxon outbox` lists what is parked and
 * `klaxon outbox retry` hands it back. Fake Temporal clients refuse or fail the calls they pick;
 * backoff waits are skipped by moving `next_attempt_at` into the past (the policy's timings are
 * unit-tested in test/unit/relay/retry-policy.test.ts).
 */
const fx = outboxFixture();
const { db, incidentWithPending } = fx;
const logs: Array<Record<string, unknown>> = [];
const logger = createLogger('warn', { write: (line: string) => void logs.push(JSON.parse(line)) });

async function drainOnce(temporal: Client): Promise<void> {
  const relay = new OutboxRelay({ orm: fx.orm, temporal, taskQueue: 'unused', logger });
  relay.kick();
  await relay.stop();
}

const rowOf = (eventId: string) => db()('ingest_outbox').where({ event_id: eventId }).first();
const addEvent = async (incidentId: string, kind = 'attached') => {
  const eventId = randomUUID();
  await db()('ingest_outbox').insert({ id: randomUUID(), incident_id: incidentId, event_id: eventId, kind, created_at: new Date() });
  return eventId;
};
/** The backoff the rows asked for has passed. */
const backoffElapsed = (incidentId: string) =>
  db()('ingest_outbox')
    .where({ incident_id: incidentId })
    .whereNull('delivered_at')
    .whereNotNull('next_attempt_at')
    .update({ next_attempt_at: db().raw(`now() - interval '1 second'`) });
/** Parks an incident's one pending row as the relay would have: for the CLI tests. */
async function parkedIncident(error: string) {
  const incident = await incidentWithPending(1);
  await db()('ingest_outbox').where({ incident_id: incident.id }).update({ attempts: MAX_ATTEMPTS, last_error: error, parked_at: new Date() });
  return { ...incident, rowId: (await rowOf(incident.eventIds[0])).id as string };
}

describe('parking messages that keep failing', () => {
  it('when one event is refused every time, then it backs off, is parked at the fifth failure and logged once, while other incidents and the events after it flow', async () => {
    const poison = await incidentWithPending(1);
    const [poisonEvent] = poison.eventIds;
    const fake = fakeTemporal({
      fail: (_incident, _call, eventIds) => (eventIds.includes(poisonEvent) ? rejectedError('Blob data size exceeds limit.') : undefined),
    });
    const later: string[] = [];
    for (let round = 1; round <= MAX_ATTEMPTS; round++) {
      const healthy = await incidentWithPending(2);
      later.push(await addEvent(poison.id)); // travels with the poison at first, then waits behind it
      await drainOnce(fake.client);
      expect(fake.signalsOf(healthy.id).map((c) => c.eventIds)).toEqual([healthy.eventIds]);
      const row = await rowOf(poisonEvent);
      expect(row).toMatchObject({ attempts: round, delivered_at: null });
      expect(row.last_error).toMatch(/INVALID_ARGUMENT: Blob data size exceeds limit/);
      if (round < MAX_ATTEMPTS) {
        expect(row.parked_at).toBeNull();
        expect(new Date(row.next_attempt_at).getTime()).toBeGreaterThan(Date.now()); // not retried at the head of the queue
        expect(fake.signalsOf(poison.id)).toEqual([]);
        expect(await drainAgainSignalsPoison(fake, poisonEvent)).toBe(false);
        await backoffElapsed(poison.id);
      }
    }
    const parked = await rowOf(poisonEvent);
    expect(parked.parked_at).not.toBeNull();
    expect(parked.next_attempt_at).toBeNull();
    const warnings = logs.filter((l) => l.outbox_id === parked.id);
    expect(warnings).toEqual([
      expect.objectContaining({
        level: 40,
        incident_id: poison.id,
        attempts: MAX_ATTEMPTS,
        error: expect.stringMatching(/Blob data size/),
        msg: expect.stringMatching(/parked/),
      }),
    ]);

    // Parked: never tried again, and the incident's later events are no longer held behind it.
    const tried = fake.attempts.filter((a) => a.eventIds.includes(poisonEvent)).length;
    expect(tried).toBe(MAX_ATTEMPTS);
    await backoffElapsed(poison.id);
    await drainOnce(fake.client);
    expect(fake.attempts.filter((a) => a.eventIds.includes(poisonEvent))).toHaveLength(tried);
    expect(fake.signalsOf(poison.id).flatMap((c) => c.eventIds)).toEqual(later);
    expect(logs.filter((l) => l.outbox_id === parked.id)).toHaveLength(1);
    // Only the poison was parked: its batchmates of the first round were sent without it after.
    expect(await db()('ingest_outbox').where({ incident_id: poison.id }).whereNotNull('parked_at').pluck('event_id')).toEqual([poisonEvent]);
  });

  it('when Temporal is away, then failures record the error but count no attempt, back nothing off and park nothing; the rows go once it is back', async () => {
    const incident = await incidentWithPending(2);
    const away = fakeTemporal({ fail: () => outageError() });
    for (let i = 0; i < MAX_ATTEMPTS + 2; i++) await drainOnce(away.client);
    expect(away.attempts.filter((a) => a.incidentId === incident.id)).toHaveLength(MAX_ATTEMPTS + 2);
    const rows = await db()('ingest_outbox').where({ incident_id: incident.id });
    for (const row of rows) {
      expect(row).toMatchObject({ attempts: 0, next_attempt_at: null, parked_at: null, delivered_at: null });
      expect(row.last_error).toMatch(/UNAVAILABLE/);
    }
    const back = fakeTemporal();
    await drainOnce(back.client);
    expect(back.signalsOf(incident.id).map((c) => c.eventIds)).toEqual([incident.eventIds]);
  });

  it('when every call fails with an outage, then the pass stops trying new incidents after a round of them instead of waiting on each in turn', async () => {
    const incidents = await Promise.all(Array.from({ length: 40 }, () => incidentWithPending(1)));
    const away = fakeTemporal({ fail: () => outageError() });
    await drainOnce(away.client);
    const tried = new Set(away.attempts.map((a) => a.incidentId));
    expect(tried.size).toBeGreaterThanOrEqual(16);
    expect(tried.size).toBeLessThan(incidents.length);
    await drainOnce(fakeTemporal().client); // leave nothing pending for the next tests
  });
});

/** Whether a pass run now would signal the poison event (it must not while it backs off). */
async function drainAgainSignalsPoison(fake: ReturnType<typeof fakeTemporal>, poisonEvent: string): Promise<boolean> {
  const before = fake.attempts.length;
  await drainOnce(fake.client);
  return fake.attempts.slice(before).some((a) => a.eventIds.includes(poisonEvent));
}

describe('klaxon outbox', () => {
  it('when messages are parked and others pending, then it lists counts, the oldest pending age and each parked message; --json is one object', async () => {
    const first = await parkedIncident('ServiceError: refused <- 3 INVALID_ARGUMENT: no');
    const second = await parkedIncident('TypeError: boom');
    const waiting = await incidentWithPending(1);
    await db()('ingest_outbox')
      .where({ incident_id: waiting.id })
      .update({ created_at: db().raw(`now() - interval '2 minutes'`) });

    const res = await klaxon(['outbox', '--json']);
    expect(res.code).toBe(0);
    expect(res.stdout.trim().split('\n')).toHaveLength(1);
    const parkedBefore = await db()('ingest_outbox').whereNotNull('parked_at').whereNull('delivered_at').count({ n: '*' });
    expect(res.json).toEqual({
      pending: 1,
      oldest_pending_age_seconds: expect.any(Number),
      parked: Number(parkedBefore[0].n),
      messages: expect.arrayContaining([
        {
          id: first.rowId,
          incident_id: first.id,
          kind: 'opened',
          attempts: MAX_ATTEMPTS,
          last_error: 'ServiceError: refused <- 3 INVALID_ARGUMENT: no',
          parked_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
        expect.objectContaining({ id: second.rowId, last_error: 'TypeError: boom' }),
      ]),
    });
    expect(res.json.oldest_pending_age_seconds).toBeGreaterThanOrEqual(120);
    expect(res.json.oldest_pending_age_seconds).toBeLessThan(600);
    expect(res.json.messages).toHaveLength(res.json.parked);
    expect(await outboxHealth(fx.orm)).toEqual({ pending: 1, oldest_pending_age_seconds: expect.any(Number), parked: res.json.parked });
    await drainOnce(fakeTemporal().client);
  });

  it('when a parked message is retried by id, then it is unparked and the relay delivers it', async () => {
    const parked = await parkedIncident('refused');
    const fake = fakeTemporal();
    await drainOnce(fake.client);
    expect(fake.signalsOf(parked.id)).toEqual([]);

    const res = await klaxon(['outbox', 'retry', parked.rowId, '--json']);
    expect(res.code).toBe(0);
    expect(res.json).toEqual({ retried: [parked.rowId] });
    expect(await rowOf(parked.eventIds[0])).toMatchObject({ parked_at: null, attempts: 0, next_attempt_at: null, delivered_at: null });
    await drainOnce(fake.client);
    expect(fake.signalsOf(parked.id).map((c) => c.eventIds)).toEqual([parked.eventIds]);
    expect((await rowOf(parked.eventIds[0])).delivered_at).not.toBeNull();
  });

  it('when every parked message is retried with --all, then each is unparked and delivered', async () => {
    const parked = [await parkedIncident('a'), await parkedIncident('b')];
    const res = await klaxon(['outbox', 'retry', '--all', '--json']);
    expect(res.code).toBe(0);
    expect(res.json.retried).toEqual(expect.arrayContaining(parked.map((p) => p.rowId)));
    expect(Number((await db()('ingest_outbox').whereNotNull('parked_at').count({ n: '*' }))[0].n)).toBe(0);
    const fake = fakeTemporal();
    await drainOnce(fake.client);
    for (const p of parked) expect(fake.signalsOf(p.id).map((c) => c.eventIds)).toEqual([p.eventIds]);
  });

  it.each([
    ['an unknown id', () => [randomUUID()], /no outbox message [0-9a-f-]{36}/],
    ['a message that is not parked', async () => [(await rowOf((await incidentWithPending(1)).eventIds[0])).id], /is not parked: it is pending/],
    ['something that is not an id', () => ['42'], /42 is not an outbox message id/],
    ['both an id and --all', () => [randomUUID(), '--all'], /one parked message id, or --all/],
    ['neither an id nor --all', () => [], /one parked message id, or --all/],
  ])('when retry is given %s, then a clear error, a non-zero exit and nothing changed', async (_name, args, message) => {
    const kept = await parkedIncident('still parked');
    const argv = await args();
    const before = await db()('ingest_outbox').orderBy('seq').select('id', 'parked_at', 'attempts', 'next_attempt_at', 'delivered_at');
    const res = await klaxon(['outbox', 'retry', ...argv, '--json']);
    expect(res.code).not.toBe(0);
    expect(res.stderr.trim()).toMatch(message);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stdout).toBe('');
    expect(await db()('ingest_outbox').orderBy('seq').select('id', 'parked_at', 'attempts', 'next_attempt_at', 'delivered_at')).toEqual(before);
    expect((await rowOf(kept.eventIds[0])).parked_at).not.toBeNull();
  });
});
