import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { hashSecret } from '../../domain/api-token';
import { isUuid, looksLikeUrlSecret, newUrlSecret } from '../../domain/ids';
import { parseSourceChannels } from '../../domain/paging/form-b-channels';
import { getService, workspaceOfService } from '../workspace/catalog';
import { knexOf } from '../../db/knex';
import { invalid, notFound } from '../errors';

/**
 * Alert sources: secret ingestion URLs owned by a service. Only the SHA-256 of the secret is
 * stored; a lookup hashes the presented secret and finds the row by index, so the time it takes
 * does not depend on how much of a secret matches.
 */


export interface SourceWithUrl {
  id: string;
  name: string;
  service_id: string;
  ingest_url: string;
  /** Form B: the channels it pages (by the severity default table) instead of the service's policy. */
  channels?: string[] | null;
}

/** Creates a source on a service of a workspace; the URL (with its secret) is returned this once. */
export async function createSource(
  orm: MikroORM,
  input: { organizationId: string; serviceId: string; name: string; ingestBaseUrl: string; channels?: string[] },
): Promise<SourceWithUrl> {
  const parsed = input.channels ? parseSourceChannels(input.channels) : undefined;
  if (parsed && !parsed.ok) throw invalid(`channels: ${parsed.message}`);
  const channels = parsed?.ok ? parsed.channels : null;
  await getService(orm, input.organizationId, input.serviceId);
  const secret = newUrlSecret();
  const row = { id: randomUUID(), organization_id: input.organizationId, service_id: input.serviceId, name: input.name, token_hash: hashSecret(secret), status: 'ACTIVE', channels: channels && JSON.stringify(channels), created_at: new Date() };
  await knexOf(orm)('alert_sources').insert(row);
  return { id: row.id, name: row.name, service_id: row.service_id, ingest_url: `${input.ingestBaseUrl}/${secret}`, channels };
}

/** Creates a source on a service, whichever workspace it is in (the CLI names only the service). */
export async function createSourceForService(orm: MikroORM, input: { serviceId: string; name: string; ingestBaseUrl: string; channels?: string[] }): Promise<SourceWithUrl> {
  return createSource(orm, { ...input, organizationId: await workspaceOfService(orm, input.serviceId) });
}

/** Replaces a source's secret: the old URL stops working at once, the new one is returned once. */
export async function rotateSource(orm: MikroORM, input: { sourceId: string; ingestBaseUrl: string }): Promise<SourceWithUrl> {
  if (!isUuid(input.sourceId)) throw invalid('source id must be a UUID');
  const secret = newUrlSecret();
  const [row] = await knexOf(orm)('alert_sources')
    .update({ token_hash: hashSecret(secret) })
    .where({ id: input.sourceId, status: 'ACTIVE' })
    .returning(['id', 'name', 'service_id']);
  if (!row) throw notFound(`active source ${input.sourceId} not found`);
  return { id: row.id, name: row.name, service_id: row.service_id, ingest_url: `${input.ingestBaseUrl}/${secret}` };
}

/** The active source an ingestion secret belongs to, or undefined (unknown, rotated away, revoked). */
export async function findActiveSource(orm: MikroORM, secret: string): Promise<{ id: string; organizationId: string; serviceId: string } | undefined> {
  if (!looksLikeUrlSecret(secret)) return undefined;
  const row = await knexOf(orm)('alert_sources')
    .select('id', 'organization_id', 'service_id')
    .where({ token_hash: hashSecret(secret), status: 'ACTIVE' })
    .first();
  return row ? { id: row.id, organizationId: row.organization_id, serviceId: row.service_id } : undefined;
}
