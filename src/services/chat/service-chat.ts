/**
 * The one writer of `service_chat_settings` (docs/chat.md): where a service's incidents go in
 * chat — one Slack channel of the workspace's installation and one Teams Workflows webhook URL
 * (sealed: the URL is its own credential). Checking what may be stored (plan, channel exists,
 * SSRF) is the caller's; this module only keeps it.
 */
import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import type { Sealer } from '../sealing/seal';

const TABLE = 'service_chat_settings';

/** A service's chat destinations; nulls: none. */
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

interface Row {
  slack_channel_id: string | null;
  slack_channel_name: string | null;
  teams_webhook_url_sealed: string | null;
}

const fromRow = (sealer: Sealer, row: Row | undefined): ServiceChat =>
  row
    ? {
        slackChannelId: row.slack_channel_id,
        slackChannelName: row.slack_channel_name,
        teamsWebhookUrl: row.teams_webhook_url_sealed ? (sealer.open(row.teams_webhook_url_sealed) ?? null) : null,
      }
    : NO_CHAT;

/** A service's chat destinations (NO_CHAT when none were set). */
export async function getServiceChat(orm: MikroORM, sealer: Sealer, serviceId: string): Promise<ServiceChat> {
  const row = await knexOf(orm)(TABLE)
    .where({ service_id: serviceId })
    .first<Row | undefined>('slack_channel_id', 'slack_channel_name', 'teams_webhook_url_sealed');
  return fromRow(sealer, row);
}

/** Applies a change to a service's destinations and returns them as now stored. */
export async function setServiceChat(
  orm: MikroORM,
  sealer: Sealer,
  where: { organizationId: string; serviceId: string },
  change: ServiceChatChange,
): Promise<ServiceChat> {
  const columns: Partial<Row> = {};
  if (change.slackChannel !== undefined) {
    columns.slack_channel_id = change.slackChannel?.id ?? null;
    columns.slack_channel_name = change.slackChannel?.name ?? null;
  }
  if (change.teamsWebhookUrl !== undefined) columns.teams_webhook_url_sealed = change.teamsWebhookUrl === null ? null : sealer.seal(change.teamsWebhookUrl);
  if (Object.keys(columns).length > 0) {
    await knexOf(orm)(TABLE)
      .insert({ service_id: where.serviceId, organization_id: where.organizationId, ...columns })
      .onConflict('service_id')
      .merge({ ...columns, updated_at: new Date() });
  }
  return getServiceChat(orm, sealer, where.serviceId);
}

/** Forgets every Slack channel of a workspace (Slack disconnected: the channels belong to the old installation). */
export async function clearSlackChannels(orm: MikroORM, organizationId: string): Promise<void> {
  await knexOf(orm)(TABLE).where({ organization_id: organizationId }).update({ slack_channel_id: null, slack_channel_name: null, updated_at: new Date() });
}

/** Removes a deleted service's row (in the deleting transaction when given one). */
export async function deleteServiceChat(db: MikroORM | Knex, serviceId: string): Promise<void> {
  await ('em' in db ? knexOf(db) : db)(TABLE).where({ service_id: serviceId }).delete();
}

/** How many of a workspace's services send to a Teams Workflows URL. */
export async function countTeamsWebhooks(orm: MikroORM, organizationId: string): Promise<number> {
  const [{ n }] = await knexOf(orm)(TABLE).where({ organization_id: organizationId }).whereNotNull('teams_webhook_url_sealed').count({ n: '*' });
  return Number(n);
}
