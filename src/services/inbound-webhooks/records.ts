import type { MikroORM } from '@mikro-orm/postgresql';
import { isUuid } from '../../domain/ids';
import { targetChannelsView, type WebhookTargets } from '../../domain/inbound-webhook-targets';
import { notificationTypesOf } from '../../domain/inbound-webhooks';
import { knexOf } from '../../db/knex';
import { iso, isoOrNull } from '../../db/timestamps';
import { notFound } from '../errors';
import type { Sealer } from '../sealing/seal';

/** What reading a webhook needs: the database, the sealer of its URL secret and the public URLs. */
export interface InboundWebhookDeps {
  orm: MikroORM;
  sealer: Sealer;
  urls: { ingest: string; apiKey: string };
}

/** The columns a webhook record is built from. */
export const WEBHOOK_COLUMNS = [
  'id',
  'organization_id',
  'service_id',
  'name',
  'routing_key',
  'alias',
  'description',
  'status',
  'channels',
  'url_secret_sealed',
  'signing_secret_sealed',
  'ip_allowlist',
  'target_channels',
  'total_calls',
  'successful_calls',
  'failed_calls',
  'created_at',
  'updated_at',
] as const;

export interface WebhookRow {
  id: string;
  organization_id: string;
  service_id: string;
  name: string;
  routing_key: string;
  alias: string | null;
  description: string | null;
  status: 'ACTIVE' | 'PAUSED';
  /** null: a plain source, paging its service's escalation policy. */
  channels: string[] | null;
  url_secret_sealed: string | null;
  signing_secret_sealed: string | null;
  ip_allowlist: string[] | null;
  /** Whom each channel reaches (dashboard `targetChannels`); null: the owning team's members. */
  target_channels: WebhookTargets | null;
  total_calls: number;
  successful_calls: number;
  failed_calls: number;
  created_at: Date | string;
  updated_at: Date | string | null;
}

/**
 * A webhook as every surface shows it (spec "Webhook", docs/architecture.md, "Inbound webhooks"): never its signing secret,
 * only whether it has one. `webhook_url` is its secret ingestion URL (null for a source created
 * before URLs were kept sealed: rotate it to see one); `receiver_url` its Form B receiver;
 * `routing_key` its PagerDuty routing key / Opsgenie API key, shown on every read as PagerDuty
 * shows integration keys (docs/security.md, "Routing keys").
 */
export function webhookRecord(deps: Pick<InboundWebhookDeps, 'sealer' | 'urls'>, r: WebhookRow) {
  const urlSecret = r.url_secret_sealed ? deps.sealer.open(r.url_secret_sealed) : undefined;
  return {
    id: r.id,
    name: r.name,
    alias: r.alias ?? '',
    description: r.description ?? '',
    status: r.status,
    webhook_url: urlSecret ? `${deps.urls.ingest}/${urlSecret}` : null,
    receiver_url: `${deps.urls.apiKey}/webhook/${r.id}`,
    // The key of the PagerDuty- and Opsgenie-compatible intakes (docs/compat-intake.md).
    routing_key: r.routing_key,
    service_id: r.service_id,
    channels: r.channels,
    notification_types: notificationTypesOf(r.channels ?? []),
    target_channels: targetChannelsView(r.target_channels),
    signed: r.signing_secret_sealed !== null,
    ip_allowlist: r.ip_allowlist ?? [],
    statistics: { total_calls: Number(r.total_calls), successful_calls: Number(r.successful_calls), failed_calls: Number(r.failed_calls) },
    created_at: iso(r.created_at),
    updated_at: isoOrNull(r.updated_at) ?? iso(r.created_at),
  };
}
export type WebhookRecord = ReturnType<typeof webhookRecord>;

/**
 * Which live sources a read sees: `webhooks`, the ones that page channels (Form B, the API-key
 * surface's webhooks), or `all` of them, plain sources that page their service's policy too (the
 * dashboard's alert sources: one table, docs/architecture.md, "Inbound webhooks").
 */
export type SourceScope = 'webhooks' | 'all';

/** The workspace's live sources in a scope. */
const sources = (deps: Pick<InboundWebhookDeps, 'orm'>, organizationId: string, scope: SourceScope) => {
  const q = knexOf(deps.orm)('alert_sources').where({ organization_id: organizationId }).whereIn('status', ['ACTIVE', 'PAUSED']);
  return scope === 'webhooks' ? q.whereNotNull('channels') : q;
};

/** A page of the workspace's webhooks (or, in scope `all`, sources), oldest first, and how many there are. */
export async function listInboundWebhooks(
  deps: InboundWebhookDeps,
  organizationId: string,
  page: { limit: number; offset: number },
  scope: SourceScope = 'webhooks',
) {
  const [rows, [{ n }]] = await Promise.all([
    sources(deps, organizationId, scope)
      .select(WEBHOOK_COLUMNS)
      .orderBy([{ column: 'created_at' }, { column: 'id' }])
      .limit(page.limit)
      .offset(page.offset),
    sources(deps, organizationId, scope).count({ n: '*' }),
  ]);
  return { webhooks: (rows as WebhookRow[]).map((r) => webhookRecord(deps, r)), total: Number(n) };
}

/** One of the workspace's webhooks (or sources) as stored; another workspace's, a deleted one or a bad id is not found. */
export async function webhookRow(
  deps: Pick<InboundWebhookDeps, 'orm'>,
  organizationId: string,
  id: string,
  scope: SourceScope = 'webhooks',
): Promise<WebhookRow> {
  const row = isUuid(id) ? await sources(deps, organizationId, scope).select(WEBHOOK_COLUMNS).where({ id }).first() : undefined;
  if (!row) throw notFound(`${scope === 'webhooks' ? 'webhook' : 'source'} ${id} not found`);
  return row as WebhookRow;
}

export async function getInboundWebhook(deps: InboundWebhookDeps, organizationId: string, id: string, scope: SourceScope = 'webhooks'): Promise<WebhookRecord> {
  return webhookRecord(deps, await webhookRow(deps, organizationId, id, scope));
}
