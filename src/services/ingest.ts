import { randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/postgresql';
import type { MikroORM } from '@mikro-orm/postgresql';
import { payloadFingerprint } from '../domain/ingest/canonical-json';
import { parseFormA, type FormAEvent } from '../domain/ingest/form-a';
import { knexOf } from './db';
import { conflict, invalid, notFound } from './errors';
import { findActiveSource } from './sources';

/** Statuses an incident can take new alerts in (design.md §5: "its open incident"). */
const OPEN_STATUSES = ['TRIGGERED', 'ACKNOWLEDGED', 'INVESTIGATING'];

export interface IngestAnswer {
  status: 'accepted';
  event_id: string;
  incident_id: string;
  duplicate: boolean;
}

export interface IngestOptions {
  /** How long an Idempotency-Key's first answer is replayed. */
  idempotencyTtlMs: number;
}

/**
 * Accepts one Form A event on a source. The alert, its idempotency record, its routing and its
 * outbox message commit in one transaction before the caller answers 2xx; delivery to the
 * workflow happens after (the outbox relay), so an accepted event is never lost.
 */
export async function ingestEvent(
  orm: MikroORM,
  input: { secret: string; body: unknown; idempotencyKey?: string },
  opts: IngestOptions,
): Promise<{ answer: IngestAnswer; delivered: boolean }> {
  const source = await findActiveSource(orm, input.secret);
  if (!source) throw notFound('unknown or revoked ingestion URL');
  const parsed = parseFormA(input.body);
  if (!parsed.ok) throw invalid(parsed.message);
  const key = input.idempotencyKey;
  if (key !== undefined && (key.length === 0 || key.length > 255)) throw invalid('Idempotency-Key must be 1 to 255 characters');
  const fingerprint = payloadFingerprint(input.body);

  return knexOf(orm).transaction(async (trx) => {
    if (key !== undefined) {
      const replay = await claimIdempotencyKey(trx, source.id, key, fingerprint, opts.idempotencyTtlMs);
      if (replay) return { answer: { status: 'accepted', event_id: replay.event_id, incident_id: replay.incident_id, duplicate: true }, delivered: true };
    }
    const eventId = randomUUID();
    const routed = await route(trx, source, parsed.event);
    await trx('alerts').insert({
      id: eventId,
      organization_id: source.organizationId,
      source_id: source.id,
      service_id: source.serviceId,
      incident_id: routed.incidentId,
      dedup_key: parsed.event.dedupKey,
      title: parsed.event.title,
      message: parsed.event.message,
      description: parsed.event.description,
      severity: parsed.event.severity,
      status: 'ACTIVE',
      sender: 'form-a',
      metadata: JSON.stringify({ ...parsed.event.metadata, ...(parsed.event.source ? { source: parsed.event.source } : {}) }),
      created_at: new Date(),
    });
    await trx('ingest_outbox').insert({ id: randomUUID(), incident_id: routed.incidentId, event_id: eventId, kind: routed.kind, created_at: new Date() });
    if (key !== undefined) {
      await trx('idempotency_records').update({ event_id: eventId, incident_id: routed.incidentId }).where({ source_id: source.id, key });
    }
    return { answer: { status: 'accepted', event_id: eventId, incident_id: routed.incidentId, duplicate: false }, delivered: false };
  });
}

/**
 * Takes the key for this request, or returns the first answer. Concurrent requests with one key
 * queue on the primary key: the losers see the winner's row once it commits.
 */
async function claimIdempotencyKey(trx: Knex.Transaction, sourceId: string, key: string, fingerprint: string, ttlMs: number) {
  await trx('idempotency_records').where({ source_id: sourceId, key }).andWhere('expires_at', '<=', new Date()).delete();
  const now = new Date();
  const claimed = await trx('idempotency_records')
    .insert({ source_id: sourceId, key, fingerprint, event_id: NIL, incident_id: NIL, created_at: now, expires_at: new Date(now.getTime() + ttlMs) })
    .onConflict(['source_id', 'key'])
    .ignore()
    .returning('key');
  if (claimed.length) return undefined;
  const first = await trx('idempotency_records').select('fingerprint', 'event_id', 'incident_id').where({ source_id: sourceId, key }).first();
  if (first.fingerprint !== fingerprint) {
    throw conflict('this Idempotency-Key was already used with a different payload', 'idempotency_conflict');
  }
  return first as { event_id: string; incident_id: string };
}

const NIL = '00000000-0000-0000-0000-000000000000';

/**
 * An event with a dedup_key joins its service's open incident with that key; otherwise (or
 * with none open) it opens a new incident. Same-key events serialise on an advisory lock so
 * fifty at once still make one incident.
 */
async function route(trx: Knex.Transaction, source: { organizationId: string; serviceId: string }, event: FormAEvent): Promise<{ incidentId: string; kind: 'opened' | 'attached' }> {
  if (event.dedupKey !== null) {
    await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`${source.serviceId}:${event.dedupKey}`]);
    const open = await trx('incidents')
      .select('id')
      .where({ service_id: source.serviceId, dedup_key: event.dedupKey })
      .whereIn('status', OPEN_STATUSES)
      .orderBy('created_at', 'desc')
      .first();
    if (open) {
      await trx('incidents').where({ id: open.id }).increment('alert_count', 1).update({ updated_at: new Date() });
      return { incidentId: open.id, kind: 'attached' };
    }
  }
  return { incidentId: await openIncident(trx, source, event), kind: 'opened' };
}

async function openIncident(trx: Knex.Transaction, source: { organizationId: string; serviceId: string }, event: FormAEvent): Promise<string> {
  const service = await trx('services').select('team_id').where({ id: source.serviceId }).first();
  const [{ incident_seq: number }] = await trx('organizations').where({ id: source.organizationId }).increment('incident_seq', 1).returning('incident_seq');
  const id = randomUUID();
  const now = new Date();
  await trx('incidents').insert({
    id,
    organization_id: source.organizationId,
    number,
    service_id: source.serviceId,
    owning_team_id: service.team_id,
    title: event.title,
    description: event.description ?? event.message,
    severity: event.severity,
    status: 'TRIGGERED',
    dedup_key: event.dedupKey,
    alert_count: 1,
    last_seq: 1,
    created_at: now,
    updated_at: now,
  });
  await trx('timeline_entries').insert({
    id: randomUUID(),
    incident_id: id,
    organization_id: source.organizationId,
    seq: 1,
    type: 'created',
    to_status: 'TRIGGERED',
    actor_type: 'system',
    via: 'ingest',
    message: `Incident #${number} opened by an alert: ${event.title}`,
    created_at: now,
  });
  return id;
}
