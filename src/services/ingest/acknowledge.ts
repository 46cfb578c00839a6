import { randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/postgresql';
import type { IngestItem } from '../../domain/ingest/plan';
import { OPEN_STATUSES, type SourceRef } from './routing';

/**
 * A sender's acknowledge (docs/compat-intake.md): queues, for the open incident holding the item's
 * key on the source's service (or holding the alert it names by id), an outbox message of kind
 * `acknowledged`, and nothing else: the incident's workflow decides whether it still moves (only a
 * TRIGGERED incident does). No open incident: nothing is written. The caller holds the key's lock
 * (lockDedupKeys), so an acknowledge and a trigger of one key are routed one after the other.
 * Returns that incident.
 */
export async function storeAcknowledge(trx: Knex.Transaction, source: SourceRef, item: IngestItem, eventId: string, now = new Date()): Promise<string | null> {
  const incidentId = await openIncidentOf(trx, source, item);
  if (incidentId === null) return null;
  await trx('ingest_outbox').insert({
    id: randomUUID(),
    incident_id: incidentId,
    event_id: eventId,
    kind: 'acknowledged',
    detail: item.detail ?? null,
    created_at: now,
  });
  return incidentId;
}

/** The open incident an acknowledge is about; an incident whose sender resolved its last alert takes none. */
async function openIncidentOf(trx: Knex.Transaction, source: SourceRef, item: IngestItem): Promise<string | null> {
  if (item.alertId !== undefined) {
    if (item.alertId === null) return null;
    const byAlert = await trx('alerts as a')
      .join('incidents as i', 'i.id', 'a.incident_id')
      .where({ 'a.id': item.alertId, 'a.source_id': source.id })
      .whereIn('i.status', OPEN_STATUSES)
      .whereNull('i.alerts_closed_at')
      .first('i.id');
    return byAlert?.id ?? null;
  }
  if (item.dedupKey === null) return null;
  const byKey = await trx('incidents')
    .where({ service_id: source.serviceId, dedup_key: item.dedupKey })
    .whereIn('status', OPEN_STATUSES)
    .whereNull('alerts_closed_at')
    .orderBy('created_at', 'desc')
    .first('id');
  return byKey?.id ?? null;
}
