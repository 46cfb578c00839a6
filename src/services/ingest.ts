import { randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/postgresql';
import type { MikroORM } from '@mikro-orm/postgresql';
import { payloadFingerprint } from '../domain/ingest/canonical-json';
import { planIngest, type IngestItem } from '../domain/ingest/plan';
import type { IngestHeaders } from '../domain/ingest/types';
import { knexOf } from './db';
import { conflict, invalid, notFound } from './errors';
import type { SnsVerifier } from './sns';
import { findActiveSource } from './sources';

/** Statuses an incident can take new alerts in (design.md §5: "its open incident"). */
export const OPEN_STATUSES = ['TRIGGERED', 'ACKNOWLEDGED', 'INVESTIGATING'];

export interface IngestAnswer {
  /** `confirmed`: an SNS subscription was confirmed. */
  status: 'accepted' | 'confirmed';
  /** The first event of the request (null when the sender's message asked for nothing). */
  event_id: string | null;
  incident_id: string | null;
  duplicate: boolean;
  /** Every event of a batch payload (Alertmanager, Grafana), when there is more than one. */
  events?: Array<{ event_id: string; incident_id: string | null; action: IngestItem['action'] }>;
}

export interface IngestOptions {
  /** How long an Idempotency-Key's first answer is replayed. */
  idempotencyTtlMs: number;
  /** Verifies SNS deliveries and confirms subscriptions. */
  sns: SnsVerifier;
}

/**
 * Accepts one Form A event on a source. The alert, its idempotency record, its routing and its
 * outbox message commit in one transaction before the caller answers 2xx; delivery to the
 * workflow happens after (the outbox relay), so an accepted event is never lost.
 */
export async function ingestEvent(
  orm: MikroORM,
  input: { secret: string; body: unknown; headers?: IngestHeaders; idempotencyKey?: string },
  opts: IngestOptions,
): Promise<{ answer: IngestAnswer; delivered: boolean }> {
  const source = await findActiveSource(orm, input.secret);
  if (!source) throw notFound('unknown or revoked ingestion URL');
  const plan = planIngest(input.body, input.headers ?? {});
  if (!plan.ok) throw invalid(plan.message);
  if (plan.sender === 'aws-sns') {
    const envelope = await opts.sns.verified(input.body); // nothing of an unverified message is used
    if (plan.confirm) {
      await opts.sns.confirm(envelope);
      return { answer: { status: 'confirmed', event_id: null, incident_id: null, duplicate: false }, delivered: true };
    }
  }
  const key = input.idempotencyKey;
  if (key !== undefined && (key.length === 0 || key.length > 255)) throw invalid('Idempotency-Key must be 1 to 255 characters');
  const fingerprint = payloadFingerprint(input.body);

  return knexOf(orm).transaction(async (trx) => {
    if (key !== undefined) {
      const replay = await claimIdempotencyKey(trx, source.id, key, fingerprint, opts.idempotencyTtlMs);
      if (replay) return { answer: { status: 'accepted', event_id: replay.event_id, incident_id: nullIfNil(replay.incident_id), duplicate: true }, delivered: true };
    }
    const events: NonNullable<IngestAnswer['events']> = [];
    for (const item of plan.items) {
      const eventId = randomUUID();
      const incidentId = item.action === 'trigger' ? await trigger(trx, source, item, eventId) : await resolve(trx, source, item, eventId);
      events.push({ event_id: eventId, incident_id: incidentId, action: item.action });
    }
    const first = events[0];
    if (key !== undefined && first) {
      await trx('idempotency_records').update({ event_id: first.event_id, incident_id: first.incident_id ?? NIL }).where({ source_id: source.id, key });
    }
    const answer: IngestAnswer = { status: 'accepted', event_id: first?.event_id ?? null, incident_id: first?.incident_id ?? null, duplicate: false };
    if (events.length > 1) answer.events = events;
    return { answer, delivered: events.length === 0 };
  });
}

/** Where an alert comes from: an alert source, or a heartbeat. */
export type SourceRef = { id: string; organizationId: string; serviceId: string };

/** Stores the alert on the incident it routes to and queues its delivery. */
export async function trigger(trx: Knex.Transaction, source: SourceRef, item: IngestItem, eventId: string): Promise<string> {
  const routed = await route(trx, source, item);
  await trx('alerts').insert({
    id: eventId,
    organization_id: source.organizationId,
    source_id: source.id,
    service_id: source.serviceId,
    incident_id: routed.incidentId,
    dedup_key: item.dedupKey,
    title: item.title,
    message: item.message,
    description: item.description,
    severity: item.severity,
    status: 'ACTIVE',
    sender: item.sender,
    metadata: JSON.stringify(item.metadata),
    created_at: new Date(),
  });
  await trx('ingest_outbox').insert({ id: randomUUID(), incident_id: routed.incidentId, event_id: eventId, kind: routed.kind, created_at: new Date() });
  return routed.incidentId;
}

/**
 * Resolves the source's active alerts with the key. When that leaves an open incident with no
 * active alert, its workflow is asked to resolve it. Returns that incident, if any.
 */
export async function resolve(trx: Knex.Transaction, source: SourceRef, item: IngestItem, eventId: string): Promise<string | null> {
  if (item.dedupKey === null) return null;
  const touched: Array<{ incident_id: string }> = await trx('alerts')
    .update({ status: 'RESOLVED', resolved_at: new Date() })
    .where({ source_id: source.id, sender: item.sender, dedup_key: item.dedupKey, status: 'ACTIVE' })
    .returning('incident_id');
  let resolved: string | null = null;
  for (const incidentId of new Set(touched.map((t) => t.incident_id))) {
    const stillActive = await trx('alerts').where({ incident_id: incidentId, status: 'ACTIVE' }).first('id');
    const open = await trx('incidents').where({ id: incidentId }).whereIn('status', OPEN_STATUSES).first('id');
    if (stillActive || !open) continue;
    await trx('ingest_outbox').insert({ id: randomUUID(), incident_id: incidentId, event_id: eventId, kind: 'resolved', created_at: new Date() });
    resolved = incidentId;
  }
  return resolved;
}

const nullIfNil = (id: string) => (id === NIL ? null : id);

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
async function route(trx: Knex.Transaction, source: SourceRef, event: IngestItem): Promise<{ incidentId: string; kind: 'opened' | 'attached' }> {
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

async function openIncident(trx: Knex.Transaction, source: SourceRef, event: IngestItem): Promise<string> {
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
