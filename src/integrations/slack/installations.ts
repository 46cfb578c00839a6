/**
 * The one writer of `slack_installations` (docs/chat.md): a workspace's connection to one Slack
 * workspace. The bot token is sealed under KLAXON_SECRET and opened only to call Slack.
 */
import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { SlackInstallation } from '../../db/entities/slack-installation';
import { knexOf } from '../../db/knex';
import type { Sealer } from '../../services/sealing/seal';

const TABLE = 'slack_installations';

/** What `oauth.v2.access` answered, as Klaxon keeps it. */
export interface NewSlackInstallation {
  organizationId: string;
  slackTeamId: string;
  slackTeamName: string;
  botUserId: string;
  botToken: string;
  scopes: string;
  installedBy: string | null;
}

/** An installation as read back: the token still sealed. */
export type SlackInstallationRow = Omit<SlackInstallation, 'updatedAt'>;

const COLUMNS = {
  id: 'id',
  organizationId: 'organization_id',
  slackTeamId: 'slack_team_id',
  slackTeamName: 'slack_team_name',
  botUserId: 'bot_user_id',
  botTokenSealed: 'bot_token_sealed',
  scopes: 'scopes',
  installedBy: 'installed_by',
  createdAt: 'created_at',
} as const;

/** Saves a workspace's installation, replacing an earlier one (reinstalling refreshes the token and scopes). */
export async function saveSlackInstallation(orm: MikroORM, sealer: Sealer, install: NewSlackInstallation): Promise<void> {
  const row = {
    id: randomUUID(),
    organization_id: install.organizationId,
    slack_team_id: install.slackTeamId,
    slack_team_name: install.slackTeamName,
    bot_user_id: install.botUserId,
    bot_token_sealed: sealer.seal(install.botToken),
    scopes: install.scopes,
    installed_by: install.installedBy,
  };
  const { id: _id, organization_id: _org, ...changes } = row;
  await knexOf(orm)(TABLE)
    .insert(row)
    .onConflict('organization_id')
    .merge({ ...changes, updated_at: new Date() });
}

/** A workspace's installation, or undefined when Slack is not connected. */
export async function findSlackInstallation(orm: MikroORM, organizationId: string): Promise<SlackInstallationRow | undefined> {
  return knexOf(orm)(TABLE).where({ organization_id: organizationId }).first(COLUMNS);
}

/** Every Klaxon workspace connected to one Slack workspace (usually one). */
export async function findSlackInstallationsByTeam(orm: MikroORM, slackTeamId: string): Promise<SlackInstallationRow[]> {
  return knexOf(orm)(TABLE).where({ slack_team_id: slackTeamId }).select(COLUMNS);
}

/** Removes a workspace's installation; true when there was one. */
export async function deleteSlackInstallation(orm: MikroORM, organizationId: string): Promise<boolean> {
  return (await knexOf(orm)(TABLE).where({ organization_id: organizationId }).delete()) > 0;
}

/** The bot token, opened; undefined when it was sealed under another KLAXON_SECRET (reconnect to fix). */
export const openBotToken = (sealer: Sealer, row: Pick<SlackInstallationRow, 'botTokenSealed'>): string | undefined => sealer.open(row.botTokenSealed);
