/**
 * What the Integrations page shows (docs/chat.md): per chat provider, whether this Klaxon is
 * configured for it and whether the workspace is connected. Never a token or a URL.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import type { SlackConfig } from '../../integrations/slack/config';
import { countTeamsWebhooks } from './service-chat';
import { findSlackInstallation } from '../../integrations/slack/installations';

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

export interface TeamsIntegrationJson {
  provider: 'teams';
  /** Teams needs no app: always true. */
  configured: true;
  /** At least one service has a Teams Workflows URL. */
  connected: boolean;
  /** How many services have one. */
  services_with_webhook: number;
}

export type IntegrationJson = SlackIntegrationJson | TeamsIntegrationJson;

/** The workspace's chat integrations: Slack, then Teams. */
export async function listIntegrations(deps: { orm: MikroORM; slack: SlackConfig | undefined }, organizationId: string): Promise<IntegrationJson[]> {
  const [installation, teams] = await Promise.all([findSlackInstallation(deps.orm, organizationId), countTeamsWebhooks(deps.orm, organizationId)]);
  const installer = installation?.installedBy
    ? await knexOf(deps.orm)('users')
        .select('id', 'name', 'email')
        .where({ id: installation.installedBy })
        .first<{ id: string; name: string | null; email: string } | undefined>()
    : undefined;
  const slack: SlackIntegrationJson = {
    provider: 'slack',
    configured: deps.slack !== undefined,
    connected: installation !== undefined,
    team_id: installation?.slackTeamId ?? null,
    team_name: installation?.slackTeamName ?? null,
    installed_at: installation ? new Date(installation.createdAt).toISOString() : null,
    installed_by: installer ? { id: installer.id, name: installer.name, email: installer.email } : null,
  };
  return [slack, { provider: 'teams', configured: true, connected: teams > 0, services_with_webhook: teams }];
}
