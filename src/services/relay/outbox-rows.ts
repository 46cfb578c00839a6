import type { MikroORM } from '@mikro-orm/postgresql';
import type { IncidentWorkflowInput } from '../../../workflows/definitions';
import { knexOf } from '../../db/knex';

/** An undelivered `ingest_outbox` row with what its incident's workflow needs to start. */
export interface PendingRow {
  id: string;
  event_id: string;
  kind: 'opened' | 'attached' | 'resolved';
  incident_id: string;
  organization_id: string;
  service_id: string | null;
  severity: IncidentWorkflowInput['severity'];
  status: IncidentWorkflowInput['status'];
  last_seq: number;
  title: string;
}

/** Pending rows oldest first, at most `limit`, none of the incidents held back. */
export async function pendingRows(orm: MikroORM, limit: number, heldBack: string[]): Promise<PendingRow[]> {
  const knex = knexOf(orm);
  const query = knex('ingest_outbox as o')
    .join('incidents as i', 'i.id', 'o.incident_id')
    .leftJoin('alerts as a', 'a.id', 'o.event_id')
    .select('o.id', 'o.event_id', 'o.kind', 'o.incident_id', 'i.organization_id', 'i.service_id', 'i.severity', 'i.status', 'i.last_seq', knex.raw('coalesce(a.title, i.title) as title'))
    .whereNull('o.delivered_at')
    .orderBy('o.seq')
    .limit(limit);
  if (heldBack.length) query.whereRaw('o.incident_id <> all(?::uuid[])', [`{${heldBack.join(',')}}`]);
  return (await query) as PendingRow[];
}

/** Of these incidents, the ones with an undelivered row that is not an attached alert (an opening or a resolve). */
export async function incidentsWithUrgentRows(orm: MikroORM, incidentIds: string[]): Promise<Set<string>> {
  const rows: Array<{ incident_id: string }> = await knexOf(orm)('ingest_outbox').distinct('incident_id').whereNull('delivered_at').whereNot('kind', 'attached').whereIn('incident_id', incidentIds);
  return new Set(rows.map((r) => r.incident_id));
}

/** Marks rows delivered. */
export async function markDelivered(orm: MikroORM, ids: string[]): Promise<void> {
  await knexOf(orm)('ingest_outbox').whereIn('id', ids).update({ delivered_at: new Date() });
}

/** Counts a failed attempt on rows, with the error that stopped them. */
export async function markFailed(orm: MikroORM, ids: string[], error: unknown): Promise<void> {
  await knexOf(orm)('ingest_outbox').whereIn('id', ids).increment('attempts', 1).update({ last_error: String(error).slice(0, 500) });
}
