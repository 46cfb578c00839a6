/**
 * The one writer of `service_chat_destinations` (docs/chat.md, "Per-service destinations"): per
 * service and chat provider, where its incidents go — the provider's settings, its secret fields
 * each sealed on its own (a webhook URL is its own credential). Checking what may be stored
 * (plan, the provider's schema, SSRF, a Slack channel that exists) is the caller's; this module
 * only keeps it.
 */
import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import type { Sealer } from '../sealing/seal';

const TABLE = 'service_chat_destinations';

/** The providers the per-service route of before names (`PUT /api/services/{id}/chat`). */
const SLACK = 'slack';
const MICROSOFT_TEAMS = 'microsoft-teams';

/** One service's destination in one provider, secrets opened. */
export interface StoredDestination {
  provider: string;
  /** Settings and opened secret fields together; a secret sealed under another KLAXON_SECRET is left out. */
  settings: Record<string, unknown>;
  updatedAt: Date;
}

interface Row {
  provider: string;
  settings: Record<string, unknown>;
  secrets_sealed: Record<string, string> | null;
  updated_at: Date | string;
}

const opened = (sealer: Sealer, row: Row): StoredDestination => {
  const secrets: Record<string, string> = {};
  for (const [field, sealed] of Object.entries(row.secrets_sealed ?? {})) {
    const value = typeof sealed === 'string' ? sealer.open(sealed) : undefined;
    if (value !== undefined) secrets[field] = value;
  }
  return { provider: row.provider, settings: { ...row.settings, ...secrets }, updatedAt: new Date(row.updated_at) };
};

const dbOf = (db: MikroORM | Knex): Knex => ('em' in db ? knexOf(db) : db);

/** A service's destinations, by provider key. */
export async function listDestinations(orm: MikroORM, sealer: Sealer, serviceId: string): Promise<StoredDestination[]> {
  const rows = await knexOf(orm)(TABLE)
    .where({ service_id: serviceId })
    .orderBy('provider')
    .select<Row[]>('provider', 'settings', 'secrets_sealed', 'updated_at');
  return rows.map((row) => opened(sealer, row));
}

/** A service's destination in one provider; undefined when it has none there. */
export async function getDestination(orm: MikroORM, sealer: Sealer, serviceId: string, provider: string): Promise<StoredDestination | undefined> {
  const row = await knexOf(orm)(TABLE)
    .where({ service_id: serviceId, provider })
    .first<Row | undefined>('provider', 'settings', 'secrets_sealed', 'updated_at');
  return row ? opened(sealer, row) : undefined;
}

/**
 * Stores a service's destination in one provider, replacing what was there: the fields named in
 * `secretFields` are sealed one by one, the rest kept as they are.
 */
export async function putDestination(
  db: MikroORM | Knex,
  sealer: Sealer,
  where: { organizationId: string; serviceId: string; provider: string },
  values: Record<string, unknown>,
  secretFields: readonly string[],
): Promise<void> {
  const settings: Record<string, unknown> = {};
  const secrets: Record<string, string> = {};
  for (const [field, value] of Object.entries(values)) {
    if (value === undefined) continue;
    if (secretFields.includes(field)) secrets[field] = sealer.seal(String(value));
    else settings[field] = value;
  }
  const columns = {
    settings: JSON.stringify(settings),
    secrets_sealed: Object.keys(secrets).length > 0 ? JSON.stringify(secrets) : null,
    updated_at: new Date(),
  };
  await dbOf(db)(TABLE)
    .insert({ service_id: where.serviceId, provider: where.provider, organization_id: where.organizationId, ...columns })
    .onConflict(['service_id', 'provider'])
    .merge(columns);
}

/** Removes a service's destination in one provider; false when it had none. */
export async function deleteDestination(db: MikroORM | Knex, serviceId: string, provider: string): Promise<boolean> {
  return (await dbOf(db)(TABLE).where({ service_id: serviceId, provider }).delete()) > 0;
}

/** Removes a deleted service's destinations (in the deleting transaction when given one). */
export async function deleteServiceChat(db: MikroORM | Knex, serviceId: string): Promise<void> {
  await dbOf(db)(TABLE).where({ service_id: serviceId }).delete();
}

/** Forgets every destination of a workspace in one provider (Slack disconnected: its channels belong to the old installation). */
export async function clearProviderDestinations(orm: MikroORM, organizationId: string, provider: string): Promise<void> {
  await knexOf(orm)(TABLE).where({ organization_id: organizationId, provider }).delete();
}

/** How many of a workspace's services have a destination, per provider. */
export async function countDestinations(orm: MikroORM, organizationId: string): Promise<Map<string, number>> {
  const rows = (await knexOf(orm)(TABLE).where({ organization_id: organizationId }).groupBy('provider').select('provider').count({ n: '*' })) as Array<{
    provider: string;
    n: string | number;
  }>;
  return new Map(rows.map((r) => [r.provider, Number(r.n)]));
}

/** A service's Slack channel and Microsoft Teams URL, as `GET /api/services/{id}/chat` of before answers them; nulls: none. */
export interface ServiceChat {
  slackChannelId: string | null;
  slackChannelName: string | null;
  /** Opened; null also when it was sealed under another KLAXON_SECRET. */
  teamsWebhookUrl: string | null;
}

export const NO_CHAT: ServiceChat = { slackChannelId: null, slackChannelName: null, teamsWebhookUrl: null };

/** A change: a field left undefined keeps its value; null clears it. */
export interface ServiceChatChange {
  slackChannel?: { id: string; name: string } | null;
  teamsWebhookUrl?: string | null;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** A service's Slack channel and Teams URL, read from its destinations (NO_CHAT when none). */
export async function getServiceChat(orm: MikroORM, sealer: Sealer, serviceId: string): Promise<ServiceChat> {
  const all = await listDestinations(orm, sealer, serviceId);
  const slack = all.find((d) => d.provider === SLACK)?.settings;
  const teams = all.find((d) => d.provider === MICROSOFT_TEAMS)?.settings;
  return { slackChannelId: str(slack?.channel_id), slackChannelName: str(slack?.channel_name), teamsWebhookUrl: str(teams?.webhook_url) };
}

/** Applies a change of the Slack channel or Teams URL and returns them as now stored. */
export async function setServiceChat(
  orm: MikroORM,
  sealer: Sealer,
  where: { organizationId: string; serviceId: string },
  change: ServiceChatChange,
): Promise<ServiceChat> {
  if (change.slackChannel === null) await deleteDestination(orm, where.serviceId, SLACK);
  else if (change.slackChannel) {
    const settings = { channel_id: change.slackChannel.id, channel_name: change.slackChannel.name };
    await putDestination(orm, sealer, { ...where, provider: SLACK }, settings, []);
  }
  if (change.teamsWebhookUrl === null) await deleteDestination(orm, where.serviceId, MICROSOFT_TEAMS);
  else if (change.teamsWebhookUrl !== undefined) {
    await putDestination(orm, sealer, { ...where, provider: MICROSOFT_TEAMS }, { webhook_url: change.teamsWebhookUrl }, ['webhook_url']);
  }
  return getServiceChat(orm, sealer, where.serviceId);
}
