import { randomBytes } from 'node:crypto';
import type { Role } from '../../domain/roles';
import { parseCidrs } from '../../domain/cidr';
import { parseSourceChannels } from '../../domain/paging/form-b-channels';
import { parseTargetChannels, type WebhookTargets } from '../../domain/inbound-webhook-targets';
import { aliasOf, canManageWebhook, type WebhookStatus } from '../../domain/inbound-webhooks';
import { knexOf } from '../../db/knex';
import { forbidden, invalid, notFound } from '../errors';
import { createSource, purgeSource, retireSource, rotateSource, updateSourceFields } from '../ingest/sources';
import { listServices } from '../workspace/catalog';
import { webhookRecord, webhookRow, type SourceScope, type InboundWebhookDeps, type WebhookRecord } from './records';
import { memberOwningAddress } from './target-members';

/** The member acting, as their credential resolved them. */
export interface WebhookActor {
  organizationId: string;
  userId: string;
  role: Role;
}

export interface WebhookInput {
  name: string;
  /** The channels it pages; none: a plain source, paging its service's escalation policy. */
  channels?: string[];
  description?: string | null;
  alias?: string;
  /** The service it routes to; optional when the workspace has exactly one. */
  serviceId?: string;
  ipAllowlist?: string[];
  /** false: no signing secret (senders need not sign). Default true. */
  signed?: boolean;
  /**
   * Whom each channel reaches, keyed by channel (`sms`, `call`, …): an address or a member's user
   * id (src/domain/inbound-webhook-targets.ts). Absent: the owning team's members, on their contacts.
   */
  targetChannels?: Record<string, string>;
}

export type WebhookPatch = Partial<Omit<WebhookInput, 'serviceId' | 'signed'>> & { status?: WebhookStatus };

/** A fresh signing secret: `whsec_` and 32 random bytes, base64url. */
export const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

function channelsOf(names: string[]): string[] {
  const parsed = parseSourceChannels(names);
  if (!parsed.ok) throw invalid(`channels: ${parsed.message}`);
  return parsed.channels;
}

function allowlistOf(entries: string[]): string[] {
  const parsed = parseCidrs(entries);
  if (!parsed.ok) throw invalid(`ip_allowlist: ${parsed.message}`);
  return parsed.normalised;
}

/**
 * Checks targets against the webhook's channels, and that each reaches a member of the workspace:
 * a member's user id, or an address that is one of theirs (memberOwningAddress).
 */
async function targetsOf(
  deps: InboundWebhookDeps,
  organizationId: string,
  raw: Record<string, string> | undefined,
  channels: string[] | undefined,
): Promise<WebhookTargets | null> {
  if (!raw || Object.keys(raw).length === 0) return null;
  const parsed = parseTargetChannels(raw, channels ?? []);
  if (!parsed.ok) throw invalid(`${parsed.field}: ${parsed.message}`);
  const db = knexOf(deps.orm);
  const members = new Set<string>(
    parsed.memberIds.length ? await db('memberships').where({ organization_id: organizationId }).whereIn('user_id', parsed.memberIds).pluck('user_id') : [],
  );
  for (const key of Object.keys(raw)) {
    const name = parsed.keys[key];
    const t = parsed.targets[name]!;
    if ('user_id' in t) {
      if (!members.has(t.user_id)) throw invalid(`targetChannels.${key}: not a member of this workspace`);
    } else if (name === 'push' || !(await memberOwningAddress(db, organizationId, name, t.address))) {
      throw invalid(
        `targetChannels.${key}: not an address of a member of this workspace: give a member's user id, their account email or one of their verified contact methods`,
      );
    }
  }
  return parsed.targets;
}

/** Refuses unless the actor may manage webhooks of the service's owning team. */
export async function assertMayManage(deps: Pick<InboundWebhookDeps, 'orm'>, actor: WebhookActor, serviceId: string): Promise<void> {
  const inTeam = await knexOf(deps.orm)('services as s')
    .join('team_members as tm', 'tm.team_id', 's.team_id')
    .where({ 's.id': serviceId, 'tm.user_id': actor.userId })
    .first('s.id');
  if (!canManageWebhook(actor.role, Boolean(inTeam))) {
    throw forbidden(
      'changing alert sources and webhooks needs an Account Admin, a Billing Owner, or a Team Manager of the team that owns its service',
      'forbidden',
    );
  }
}

async function serviceFor(deps: InboundWebhookDeps, organizationId: string, serviceId: string | undefined): Promise<string> {
  if (serviceId) return serviceId;
  const services = await listServices(deps.orm, organizationId);
  if (services.length === 1) return services[0].id;
  if (services.length === 0) throw invalid('this workspace has no service yet: create one, then its webhooks');
  throw invalid(`service_id is required: this workspace has ${services.length} services`);
}

/** Creates a webhook; the answer holds its signing secret (unless `signed: false`), shown this once. */
export async function createInboundWebhook(
  deps: InboundWebhookDeps,
  actor: WebhookActor,
  input: WebhookInput,
): Promise<WebhookRecord & { signing_secret: string | null }> {
  const channels = input.channels && channelsOf(input.channels);
  const ipAllowlist = input.ipAllowlist ? allowlistOf(input.ipAllowlist) : null;
  const serviceId = await serviceFor(deps, actor.organizationId, input.serviceId);
  await assertMayManage(deps, actor, serviceId);
  const targetChannels = await targetsOf(deps, actor.organizationId, input.targetChannels, channels);
  const signingSecret = input.signed === false ? null : newSigningSecret();
  const created = await createSource(deps.orm, {
    organizationId: actor.organizationId,
    serviceId,
    name: input.name,
    ingestBaseUrl: deps.urls.ingest,
    channels,
    seal: (s) => deps.sealer.seal(s),
    webhook: {
      alias: input.alias ?? aliasOf(input.name),
      description: input.description ?? null,
      ipAllowlist,
      targetChannels,
      signingSecretSealed: signingSecret && deps.sealer.seal(signingSecret),
    },
  });
  return { ...webhookRecord(deps, await webhookRow(deps, actor.organizationId, created.id, 'all')), signing_secret: signingSecret };
}

/**
 * Changes what the patch names; a PAUSED webhook answers its senders 423 until set ACTIVE again.
 * A plain source given channels becomes a Form B webhook, whose receiver anyone who knows its id
 * could post to: it gets a signing secret, answered this once (`signing_secret`).
 */
export async function updateInboundWebhook(
  deps: InboundWebhookDeps,
  actor: WebhookActor,
  id: string,
  patch: WebhookPatch,
  scope: SourceScope = 'webhooks',
): Promise<WebhookRecord & { signing_secret?: string }> {
  const row = await webhookRow(deps, actor.organizationId, id, scope);
  await assertMayManage(deps, actor, row.service_id);
  const channels = patch.channels && channelsOf(patch.channels);
  const signingSecret = channels && row.channels === null && row.signing_secret_sealed === null ? newSigningSecret() : undefined;
  const updated = await updateSourceFields(deps.orm, id, {
    name: patch.name,
    channels,
    status: patch.status,
    alias: patch.alias,
    description: patch.description,
    ipAllowlist: patch.ipAllowlist && allowlistOf(patch.ipAllowlist),
    signingSecretSealed: signingSecret && deps.sealer.seal(signingSecret),
  });
  if (!updated) throw notFound(`webhook ${id} not found`);
  return { ...webhookRecord(deps, await webhookRow(deps, actor.organizationId, id, 'all')), ...(signingSecret && { signing_secret: signingSecret }) };
}

/**
 * Deletes a webhook: its URLs stop working and its statistics go; its alerts and incidents remain.
 * `retire` (the API-key surface, /api/sources) keeps a tombstone row; `purge` (the dashboard's
 * /api/webhooks, "deletes the webhook and all associated data") removes the row itself.
 */
export async function deleteInboundWebhook(
  deps: InboundWebhookDeps,
  actor: WebhookActor,
  id: string,
  scope: SourceScope = 'webhooks',
  mode: 'retire' | 'purge' = 'retire',
): Promise<{ id: string; deleted: true }> {
  const row = await webhookRow(deps, actor.organizationId, id, scope);
  await assertMayManage(deps, actor, row.service_id);
  const gone = mode === 'purge' ? await purgeSource(deps.orm, id) : await retireSource(deps.orm, id);
  if (!gone) throw notFound(`webhook ${id} not found`);
  return { id, deleted: true };
}

/** A new signing secret (the old one stops verifying at once), shown this once. */
export async function rotateSigningSecret(
  deps: InboundWebhookDeps,
  actor: WebhookActor,
  id: string,
  scope: SourceScope = 'webhooks',
): Promise<{ id: string; signing_secret: string }> {
  const row = await webhookRow(deps, actor.organizationId, id, scope);
  await assertMayManage(deps, actor, row.service_id);
  const signingSecret = newSigningSecret();
  if (!(await updateSourceFields(deps.orm, id, { signingSecretSealed: deps.sealer.seal(signingSecret) }))) throw notFound(`webhook ${id} not found`);
  return { id, signing_secret: signingSecret };
}

/** A new ingestion URL (the old one stops working at once). */
export async function rotateWebhookUrl(deps: InboundWebhookDeps, actor: WebhookActor, id: string, scope: SourceScope = 'webhooks'): Promise<WebhookRecord> {
  const row = await webhookRow(deps, actor.organizationId, id, scope);
  await assertMayManage(deps, actor, row.service_id);
  await rotateSource(deps.orm, { sourceId: id, ingestBaseUrl: deps.urls.ingest, seal: (s) => deps.sealer.seal(s) });
  return webhookRecord(deps, await webhookRow(deps, actor.organizationId, id, 'all'));
}
