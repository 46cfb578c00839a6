import type { MikroORM } from '@mikro-orm/postgresql';
import { hashSecret } from '../../../src/domain/api-token';
import type { IngestItem } from '../../../src/domain/ingest/plan';
import { openOrm } from '../../../src/db/orm';
import { createService } from '../../../src/services/workspace/catalog';
import { knexOf } from '../../../src/db/knex';
import { commitBatch, type AcceptOutcome, type AcceptRequest } from '../../../src/services/ingest/batch';
import { createSource } from '../../../src/services/ingest/sources';
import { seedWorkspace, type SeededWorkspace } from '../../support/workspace';

/**
 * The group-commit transaction on its own, against the file's Postgres: what one batch of
 * requests stores must be what the same requests would store one by one.
 */
let orm: MikroORM;
let ws: SeededWorkspace;
let hashA: string;
let hashB: string;
let otherServiceId: string;
const TTL = { idempotencyTtlMs: 3_600_000 };

beforeAll(async () => {
  orm = await openOrm(process.env.KLAXON_TEST_DATABASE_URL!, 4);
  ws = await seedWorkspace(orm);
  const other = await createService(orm, { organizationId: ws.organizationId, teamId: ws.teamId, name: 'Other' });
  otherServiceId = other.id;
  const secretOf = (url: string) => url.split('/').pop()!;
  hashA = hashSecret(
    secretOf((await createSource(orm, { organizationId: ws.organizationId, serviceId: ws.serviceId, name: 'a', ingestBaseUrl: 'http://x' })).ingest_url),
  );
  hashB = hashSecret(
    secretOf((await createSource(orm, { organizationId: ws.organizationId, serviceId: other.id, name: 'b', ingestBaseUrl: 'http://x' })).ingest_url),
  );
});
afterAll(() => orm.close());

const item = (title: string, dedupKey: string | null, action: IngestItem['action'] = 'trigger'): IngestItem => ({
  action,
  title,
  message: null,
  description: null,
  severity: 'HIGH',
  dedupKey,
  sender: 'form-a',
  metadata: {},
});
const req = (tokenHash: string, items: IngestItem[], idempotency?: AcceptRequest['idempotency']): AcceptRequest => ({
  tokenHash,
  items,
  ...(idempotency ? { idempotency } : {}),
});
const commit = (requests: AcceptRequest[]) => commitBatch(knexOf(orm), requests, TTL);
const accepted = (o: AcceptOutcome) => {
  if (o.kind !== 'accepted') throw new Error(`expected accepted, got ${o.kind}`);
  return o.events;
};
const incident = (id: string) => knexOf(orm)('incidents').where({ id }).first();
const count = async (table: string, where: Record<string, unknown>) => Number((await knexOf(orm)(table).where(where).count({ n: '*' }))[0].n);

describe('commitBatch', () => {
  it('when one batch mixes sources, keys and an unknown URL, then each request is routed as it would be alone', async () => {
    const outcomes = await commit([
      req(hashA, [item('a1', 'disk')]),
      req(hashB, [item('b1', 'disk')]),
      req(hashSecret('not-a-source-secret-at-all'), [item('lost', 'disk')]),
      req(hashA, [item('a2', 'disk')]),
      req(hashA, [item('a3', null)]),
    ]);
    expect(outcomes[2]).toEqual({ kind: 'unknown_source' });
    const [a1] = accepted(outcomes[0]);
    const [b1] = accepted(outcomes[1]);
    const [a2] = accepted(outcomes[3]);
    const [a3] = accepted(outcomes[4]);
    expect(a2.incident_id).toBe(a1.incident_id); // same service, same key: one incident
    expect(b1.incident_id).not.toBe(a1.incident_id); // the key is scoped to the service
    expect(a3.incident_id).not.toBe(a1.incident_id); // no key: a new incident
    expect(await incident(a1.incident_id!)).toMatchObject({
      title: 'a1',
      alert_count: 2,
      service_id: ws.serviceId,
      owning_team_id: ws.teamId,
      status: 'TRIGGERED',
      last_seq: 1,
    });
    expect(await incident(b1.incident_id!)).toMatchObject({ title: 'b1', alert_count: 1, service_id: otherServiceId });
    expect(await count('alerts', { title: 'lost' })).toBe(0);
    const outbox = await knexOf(orm)('ingest_outbox').whereIn('event_id', [a1.event_id, a2.event_id, b1.event_id]).orderBy('event_id');
    expect(Object.fromEntries(outbox.map((o) => [o.event_id, o.kind]))).toEqual({
      [a1.event_id]: 'opened',
      [a2.event_id]: 'attached',
      [b1.event_id]: 'opened',
    });
    expect(await count('timeline_entries', { incident_id: a1.incident_id, type: 'created' })).toBe(1);
  });

  it('when a batch opens several incidents, then their numbers continue the workspace sequence with no gap or repeat', async () => {
    const before = (await knexOf(orm)('organizations').where({ id: ws.organizationId }).first()).incident_seq as number;
    const outcomes = await commit(Array.from({ length: 6 }, (_, i) => req(i % 2 ? hashA : hashB, [item(`n${i}`, null)])));
    const numbers = await Promise.all(outcomes.map(async (o) => (await incident(accepted(o)[0].incident_id!)).number as number));
    expect(numbers).toEqual([1, 2, 3, 4, 5, 6].map((n) => before + n));
  });

  it('when a batch repeats an Idempotency-Key, then the first request is stored once and the others replay it or conflict', async () => {
    const idem = (fingerprint: string) => ({ key: 'batch-key', fingerprint });
    const outcomes = await commit([
      req(hashA, [item('first', null)], idem('f1')),
      req(hashA, [item('first', null)], idem('f1')),
      req(hashA, [item('other', null)], idem('f2')),
    ]);
    const [first] = accepted(outcomes[0]);
    expect(outcomes[1]).toEqual({ kind: 'duplicate', event_id: first.event_id, incident_id: first.incident_id });
    expect(outcomes[2]).toEqual({ kind: 'conflict' });
    expect(await count('alerts', { title: 'first' })).toBe(1);
    expect(await count('alerts', { title: 'other' })).toBe(0);
    // A later batch finds the stored record, with the incident routing decided.
    expect(await commit([req(hashA, [item('first', null)], idem('f1'))])).toEqual([
      { kind: 'duplicate', event_id: first.event_id, incident_id: first.incident_id },
    ]);
  });

  it('when a batch carries a firing alert and then its resolve, then the alert ends resolved and the incident is queued to resolve', async () => {
    const outcomes = await commit([req(hashA, [item('flap', 'flap-key')]), req(hashA, [item('flap', 'flap-key', 'resolve')])]);
    const [fired] = accepted(outcomes[0]);
    const [resolved] = accepted(outcomes[1]);
    expect(resolved.incident_id).toBe(fired.incident_id);
    expect(await knexOf(orm)('alerts').where({ id: fired.event_id }).first()).toMatchObject({ status: 'RESOLVED' });
    const kinds = (await knexOf(orm)('ingest_outbox').where({ incident_id: fired.incident_id }).orderBy('kind')).map((o) => o.kind);
    expect(kinds).toEqual(['opened', 'resolved']);
  });

  it('when one request of a batch cannot be stored, then only it fails and its neighbours are accepted', async () => {
    const tooLong = 'x'.repeat(300); // past the column's 255: Postgres refuses the row
    const outcomes = await commit([req(hashA, [item('neighbour 1', null)]), req(hashA, [item(tooLong, null)]), req(hashB, [item('neighbour 2', 'n2')])]);
    expect(outcomes.map((o) => o.kind)).toEqual(['accepted', 'failed', 'accepted']);
    expect(await count('alerts', { title: 'neighbour 1' })).toBe(1);
    expect(await count('alerts', { title: 'neighbour 2' })).toBe(1);
  });

  it('when batches with the same keys in opposite orders commit at once, then none deadlocks and each key has one incident', async () => {
    const keys = ['dl-a', 'dl-b', 'dl-c'];
    const rounds = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        commit((i % 2 ? keys : [...keys].reverse()).map((k) => req(hashA, [item(`dl ${i}`, k)], { key: `dl-${i}-${k}`, fingerprint: k }))),
      ),
    );
    expect(rounds.flat().every((o) => o.kind === 'accepted')).toBe(true);
    for (const k of keys) {
      const open = await knexOf(orm)('incidents').where({ service_id: ws.serviceId, dedup_key: k });
      expect(open).toHaveLength(1);
      expect(open[0].alert_count).toBe(12);
    }
  });
});
