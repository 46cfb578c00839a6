import { randomUUID } from 'node:crypto';
import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { hashSecret } from '../../domain/api-token';
import { isUuid, looksLikeUrlSecret, newUrlSecret } from '../../domain/ids';
import { isRoutingKey, newRoutingKey, normaliseRoutingKey } from '../../domain/routing-key';
import { parseSourceChannels } from '../../domain/paging/form-b-channels';
import { getService, workspaceOfService } from '../workspace/catalog';
import { knexOf } from '../../db/knex';
import { PLAN_LIMITS, type Plan } from '../../domain/plans';
import { conflict, forbidden, invalid, notFound } from '../errors';

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
  /** The key of the PagerDuty/Opsgenie-compatible intakes (docs/compat-intake.md). */
  routing_key: string;
  /** Form B: the channels it pages (by the severity default table) instead of the service's policy. */
  channels?: string[] | null;
}

/** What a webhook keeps beside a plain source (docs/architecture.md, "Inbound webhooks"); its writes stay in this module. */
export interface WebhookFields {
  alias?: string | null;
  description?: string | null;
  signingSecretSealed?: string | null;
  ipAllowlist?: string[] | null;
  /** Whom each channel reaches (src/domain/inbound-webhook-targets.ts); null: the owning team. */
  targetChannels?: Record<string, unknown> | null;
}

/**
 * Creates a source on a service of a workspace; the URL (with its secret) is returned this once,
 * and kept sealed when a `seal` is given (webhooks show it on reads). The workspace's plan caps
 * its sources (docs/architecture.md, "Plans"): the count is taken under the workspace row's lock, so parallel
 * creates cannot pass it together.
 */
export async function createSource(
  orm: MikroORM,
  input: {
    organizationId: string;
    serviceId: string;
    name: string;
    ingestBaseUrl: string;
    channels?: string[];
    webhook?: WebhookFields;
    seal?: (plaintext: string) => string;
    /** A routing key to keep (an imported PagerDuty integration key); a new one when absent. */
    routingKey?: string;
  },
): Promise<SourceWithUrl> {
  if (input.routingKey !== undefined) checkRoutingKey(input.routingKey);
  const parsed = input.channels ? parseSourceChannels(input.channels) : undefined;
  if (parsed && !parsed.ok) throw invalid(`channels: ${parsed.message}`);
  const channels = parsed?.ok ? parsed.channels : null;
  await getService(orm, input.organizationId, input.serviceId);
  const secret = newUrlSecret();
  const now = new Date();
  const w = input.webhook ?? {};
  const row = {
    id: randomUUID(),
    organization_id: input.organizationId,
    service_id: input.serviceId,
    name: input.name,
    token_hash: hashSecret(secret),
    routing_key: input.routingKey ?? newRoutingKey(),
    status: 'ACTIVE',
    channels: channels && JSON.stringify(channels),
    alias: w.alias ?? null,
    description: w.description ?? null,
    url_secret_sealed: input.seal ? input.seal(secret) : null,
    signing_secret_sealed: w.signingSecretSealed ?? null,
    ip_allowlist: w.ipAllowlist ? JSON.stringify(w.ipAllowlist) : null,
    target_channels: w.targetChannels ? JSON.stringify(w.targetChannels) : null,
    created_at: now,
    updated_at: now,
  };
  await knexOf(orm).transaction(async (trx) => {
    const org = await trx('organizations').select('plan').where({ id: input.organizationId }).forUpdate().first();
    const limit = PLAN_LIMITS[org.plan as Plan].sources;
    if (limit !== null) {
      const [{ n }] = await trx('alert_sources').count({ n: '*' }).where({ organization_id: input.organizationId }).whereIn('status', ['ACTIVE', 'PAUSED']);
      if (Number(n) >= limit) throw forbidden(`the ${org.plan} plan allows ${limit} alert sources and webhooks; this workspace has ${n}`, 'plan_limit_reached');
    }
    if (input.routingKey !== undefined) await assertRoutingKeyFree(trx, input.routingKey);
    await trx('alert_sources').insert(row);
  });
  return { id: row.id, name: row.name, service_id: row.service_id, ingest_url: `${input.ingestBaseUrl}/${secret}`, routing_key: row.routing_key, channels };
}

/**
 * The watchdog canary's source (docs/reliability.md), in the caller's transaction: its URL secret
 * is derived from KLAXON_SECRET by every API process, so none is stored, sealed or shown.
 * Its storm guard is off: the canary's one alert per interval must always open its own incident.
 */
export async function insertDerivedSource(trx: Knex, input: { organizationId: string; serviceId: string; name: string; secret: string }): Promise<string> {
  const now = new Date();
  const id = randomUUID();
  await trx('alert_sources').insert({
    id,
    organization_id: input.organizationId,
    service_id: input.serviceId,
    name: input.name,
    token_hash: hashSecret(input.secret),
    routing_key: newRoutingKey(),
    status: 'ACTIVE',
    storm_mode: 'off',
    created_at: now,
    updated_at: now,
  });
  return id;
}

/** A derived source's secret changed (KLAXON_SECRET was rotated): its URL follows; true when it had to. */
export async function rederiveSourceSecret(trx: Knex, id: string, secret: string): Promise<boolean> {
  const tokenHash = hashSecret(secret);
  const n = await trx('alert_sources')
    .update({ token_hash: tokenHash, status: 'ACTIVE', updated_at: new Date() })
    .where({ id })
    .andWhereNot({ token_hash: tokenHash });
  return n > 0;
}

/** Creates a source on a service, whichever workspace it is in (the CLI names only the service). */
export async function createSourceForService(
  orm: MikroORM,
  input: {
    serviceId: string;
    name: string;
    ingestBaseUrl: string;
    channels?: string[];
    webhook?: WebhookFields;
    seal?: (plaintext: string) => string;
    routingKey?: string;
  },
): Promise<SourceWithUrl> {
  return createSource(orm, { ...input, organizationId: await workspaceOfService(orm, input.serviceId) });
}

/** Replaces a source's secret and routing key: the old URL and key stop working at once, the new URL is returned once. */
export async function rotateSource(
  orm: MikroORM,
  input: { sourceId: string; ingestBaseUrl: string; seal?: (plaintext: string) => string },
): Promise<SourceWithUrl> {
  if (!isUuid(input.sourceId)) throw invalid('source id must be a UUID');
  const secret = newUrlSecret();
  // Without a sealer the old sealed URL would be stale: it is dropped (reads show none until the next rotation with one).
  const [row] = await knexOf(orm)('alert_sources')
    .update({ token_hash: hashSecret(secret), routing_key: newRoutingKey(), url_secret_sealed: input.seal ? input.seal(secret) : null, updated_at: new Date() })
    .where({ id: input.sourceId })
    .whereIn('status', ['ACTIVE', 'PAUSED'])
    .returning(['id', 'name', 'service_id', 'routing_key']);
  if (!row) throw notFound(`active source ${input.sourceId} not found`);
  return { id: row.id, name: row.name, service_id: row.service_id, ingest_url: `${input.ingestBaseUrl}/${secret}`, routing_key: row.routing_key };
}

/** Refuses a routing key that is not 32 lowercase hex (400 naming the field). */
function checkRoutingKey(routingKey: string): void {
  if (!isRoutingKey(routingKey)) throw invalid('routing_key must be 32 lowercase hexadecimal characters');
}

/** 409 `routing_key_taken` when a source other than `exceptId` holds the key (tombstones included: the column is unique). */
async function assertRoutingKeyFree(trx: Knex.Transaction, routingKey: string, exceptId?: string): Promise<void> {
  const q = trx('alert_sources').where({ routing_key: routingKey });
  if (exceptId !== undefined) q.whereNot({ id: exceptId });
  if (await q.first('id')) throw conflict('routing_key: another alert source already has this routing key', 'routing_key_taken');
}

/**
 * Sets a live source's routing key (an importer re-run keeping a PagerDuty integration key);
 * 409 `routing_key_taken` when another source has it.
 */
export async function setSourceRoutingKey(orm: MikroORM, sourceId: string, routingKey: string): Promise<void> {
  checkRoutingKey(routingKey);
  await knexOf(orm).transaction(async (trx) => {
    await assertRoutingKeyFree(trx, routingKey, sourceId);
    const n = await trx('alert_sources')
      .update({ routing_key: routingKey, updated_at: new Date() })
      .where({ id: sourceId })
      .whereIn('status', ['ACTIVE', 'PAUSED']);
    if (n === 0) throw notFound(`active source ${sourceId} not found`);
  });
}

/** A live (active or paused) source of the workspace: its name, service and routing key; undefined when gone. */
export async function getLiveSource(
  orm: MikroORM,
  organizationId: string,
  id: string,
): Promise<{ id: string; name: string; service_id: string; routing_key: string } | undefined> {
  if (!isUuid(id)) return undefined;
  return knexOf(orm)('alert_sources')
    .select('id', 'name', 'service_id', 'routing_key')
    .where({ id, organization_id: organizationId })
    .whereIn('status', ['ACTIVE', 'PAUSED'])
    .first();
}

/** A live source found by a presented routing key (or an Opsgenie UUID-form key), with its token hash; undefined when none. */
export async function findSourceByRoutingKey(
  orm: MikroORM,
  presented: string,
): Promise<{ id: string; organizationId: string; serviceId: string; tokenHash: string; status: 'ACTIVE' | 'PAUSED' } | undefined> {
  const key = normaliseRoutingKey(presented);
  if (key === undefined) return undefined;
  const row = await knexOf(orm)('alert_sources')
    .select('id', 'organization_id', 'service_id', 'token_hash', 'status')
    .where({ routing_key: key })
    .whereIn('status', ['ACTIVE', 'PAUSED'])
    .first();
  return row ? { id: row.id, organizationId: row.organization_id, serviceId: row.service_id, tokenHash: row.token_hash, status: row.status } : undefined;
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

/** The status of the source a token hash belongs to (ACTIVE or PAUSED), or undefined (unknown, rotated away, revoked). */
export async function sourceStatus(orm: MikroORM, tokenHash: string): Promise<'ACTIVE' | 'PAUSED' | undefined> {
  const row = await knexOf(orm)('alert_sources').select('status').where({ token_hash: tokenHash }).whereIn('status', ['ACTIVE', 'PAUSED']).first();
  return row?.status;
}

/** Changes a live source's webhook fields (name, channels, status, …); false when it is gone. */
export async function updateSourceFields(
  orm: MikroORM,
  id: string,
  fields: {
    name?: string;
    channels?: string[];
    status?: 'ACTIVE' | 'PAUSED';
    alias?: string;
    description?: string | null;
    ipAllowlist?: string[] | null;
    signingSecretSealed?: string | null;
  },
): Promise<boolean> {
  const row: Record<string, unknown> = { updated_at: new Date() };
  if (fields.name !== undefined) row.name = fields.name;
  if (fields.channels !== undefined) row.channels = JSON.stringify(fields.channels);
  if (fields.status !== undefined) row.status = fields.status;
  if (fields.alias !== undefined) row.alias = fields.alias;
  if (fields.description !== undefined) row.description = fields.description;
  if (fields.ipAllowlist !== undefined) row.ip_allowlist = fields.ipAllowlist && JSON.stringify(fields.ipAllowlist);
  if (fields.signingSecretSealed !== undefined) row.signing_secret_sealed = fields.signingSecretSealed;
  const n = await knexOf(orm)('alert_sources').update(row).where({ id }).whereIn('status', ['ACTIVE', 'PAUSED']);
  return n > 0;
}

/** What retiring writes: a token hash nobody holds (its URLs stop working), no secrets, no statistics. */
const retired = () => {
  const now = new Date();
  return {
    status: 'REVOKED',
    revoked_at: now,
    updated_at: now,
    token_hash: hashSecret(newUrlSecret()),
    routing_key: newRoutingKey(),
    url_secret_sealed: null,
    signing_secret_sealed: null,
    ip_allowlist: null,
    total_calls: 0,
    successful_calls: 0,
    failed_calls: 0,
  };
};

/**
 * Retires a source for good (a deleted webhook): its URLs stop working (the token hash is replaced
 * by one nobody holds), its secrets and statistics go. The row stays as a tombstone so its alerts'
 * `source_id` still resolves; no read shows it, and their incidents remain.
 */
export async function retireSource(orm: MikroORM, id: string): Promise<boolean> {
  const n = await knexOf(orm)('alert_sources').update(retired()).where({ id }).whereIn('status', ['ACTIVE', 'PAUSED']);
  return n > 0;
}

/**
 * Deletes a source for good (a webhook deleted from the dashboard): the row and its idempotency
 * records go, so its URLs answer 404 and nothing of it remains but its alerts' `source_id`
 * (their incidents stay readable). False when it was not live.
 */
export async function purgeSource(orm: MikroORM, id: string): Promise<boolean> {
  return knexOf(orm).transaction(async (trx) => {
    const n = await trx('alert_sources').delete().where({ id }).whereIn('status', ['ACTIVE', 'PAUSED']);
    if (n > 0) await trx('idempotency_records').delete().where({ source_id: id });
    return n > 0;
  });
}

/** Retires every live source of a service (the service is being deleted), in the caller's transaction; how many. */
export async function retireSourcesOfService(trx: Knex.Transaction, serviceId: string): Promise<number> {
  const live = await trx('alert_sources').select('id').where({ service_id: serviceId }).whereIn('status', ['ACTIVE', 'PAUSED']).forUpdate();
  // One token hash per row: the column is unique.
  for (const { id } of live) await trx('alert_sources').update(retired()).where({ id });
  return live.length;
}
