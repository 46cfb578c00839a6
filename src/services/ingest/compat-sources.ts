import type { MikroORM } from '@mikro-orm/postgresql';
import { hashSecret } from '../../domain/api-token';
import { looksLikeUrlSecret } from '../../domain/ids';
import { normaliseRoutingKey } from '../../domain/routing-key';
import { knexOf } from '../../db/knex';

/** The source a PagerDuty routing key or Opsgenie GenieKey names (docs/compat-intake.md). */
export interface CompatSource {
  id: string;
  organizationId: string;
  /** What the group commit, the rate limit and the call statistics key a source by. */
  tokenHash: string;
  status: 'ACTIVE' | 'PAUSED';
}

/**
 * The live source a presented routing key names. Under an ingestion URL (`{ingest_url}/v2/…`)
 * the URL's secret must name a live source too, in the same workspace: a key alone cannot reach
 * another workspace's source through someone's URL, and a URL alone names no key. Undefined when
 * either is unknown (both answer as an unknown routing key). One indexed read.
 */
export async function findCompatSource(orm: MikroORM, presented: { routingKey: string; urlSecret?: string }): Promise<CompatSource | undefined> {
  const key = normaliseRoutingKey(presented.routingKey);
  if (key === undefined) return undefined;
  if (presented.urlSecret !== undefined && !looksLikeUrlSecret(presented.urlSecret)) return undefined;
  const q = knexOf(orm)('alert_sources as k')
    .select('k.id', 'k.organization_id', 'k.token_hash', 'k.status')
    .where('k.routing_key', key)
    .whereIn('k.status', ['ACTIVE', 'PAUSED']);
  if (presented.urlSecret !== undefined) {
    const urlHash = hashSecret(presented.urlSecret);
    q.whereExists((u) =>
      u
        .select(knexOf(orm).raw('1'))
        .from('alert_sources as u')
        .where('u.token_hash', urlHash)
        .whereIn('u.status', ['ACTIVE', 'PAUSED'])
        .whereRaw('u.organization_id = k.organization_id'),
    );
  }
  const row = await q.first();
  return row ? { id: row.id, organizationId: row.organization_id, tokenHash: row.token_hash, status: row.status } : undefined;
}

/**
 * An alert Opsgenie's request status can report (`GET /v2/alerts/requests/{requestId}`): the
 * alert a create stored, its request id being its event id, on this source. Undefined otherwise.
 */
export async function createdAlert(
  orm: MikroORM,
  sourceId: string,
  eventId: string,
): Promise<{ id: string; createdAt: Date; alias: string | null } | undefined> {
  const row = await knexOf(orm)('alerts').select('id', 'created_at', 'metadata').where({ id: eventId, source_id: sourceId }).first();
  if (!row) return undefined;
  const alias = (row.metadata as { alias?: unknown } | null)?.alias;
  return { id: row.id, createdAt: new Date(row.created_at), alias: typeof alias === 'string' ? alias : null };
}
