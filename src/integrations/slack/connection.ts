/**
 * The workspace's Slack connection as the Integrations page shows it (docs/chat.md, `GET
 * /api/integrations`): whether the app's variables are set, whether the workspace installed the
 * app, which Slack workspace, when and by whom. Never the bot token.
 */
import { knexOf } from '../../db/knex';
import type { ChatConnectionDeps } from '../types';
import { findSlackInstallation } from './installations';
import { slackSettings } from './config';

/** Slack's entry of `GET /api/integrations` (the dashboard's Integrations page reads these fields). */
export interface SlackIntegrationJson {
  provider: 'slack';
  /** The SLACK_* variables are set. */
  configured: boolean;
  /** The workspace installed the Slack app. */
  connected: boolean;
  team_id: string | null;
  team_name: string | null;
  installed_at: string | null;
  /** The member who connected it (null when not connected, or when they have left). */
  installed_by: { id: string; name: string | null; email: string } | null;
}

/** The workspace's Slack connection, the registry key left for the caller to add (ChatDestination `connection`). */
export async function slackConnection(deps: ChatConnectionDeps, organizationId: string): Promise<Omit<SlackIntegrationJson, 'provider'>> {
  const installation = await findSlackInstallation(deps.orm, organizationId);
  const installer = installation?.installedBy
    ? await knexOf(deps.orm)('users')
        .select('id', 'name', 'email')
        .where({ id: installation.installedBy })
        .first<{ id: string; name: string | null; email: string } | undefined>()
    : undefined;
  return {
    configured: slackSettings(deps.notify) !== undefined,
    connected: installation !== undefined,
    team_id: installation?.slackTeamId ?? null,
    team_name: installation?.slackTeamName ?? null,
    installed_at: installation ? new Date(installation.createdAt).toISOString() : null,
    installed_by: installer ? { id: installer.id, name: installer.name, email: installer.email } : null,
  };
}
