/**
 * What the Integrations page shows (docs/chat.md): Slack's workspace connection, then every chat
 * provider the registry declares (src/integrations/registry.ts), given by the caller, with how
 * many services post to it. Never a token or a URL.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import type { NotifyConfig } from '../../config';
import { slackSettings } from '../../integrations/slack/config';
import { countDestinations } from './service-chat';
import type { SettingsField } from '../../integrations/types';
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

/** A chat provider whose destinations are set per service (a webhook URL): no app to connect. */
export interface ChatProviderIntegrationJson {
  /** Its registry key (`microsoft-teams`, `discord`, …). */
  provider: string;
  label: string;
  /** Needs no app: always true. */
  configured: true;
  /** At least one service posts to it. */
  connected: boolean;
  /** How many services post to it. */
  services_with_webhook: number;
  /** Its settings form, as data: the dashboard renders it generically (docs/chat.md). */
  form: SettingsField[];
}

export type IntegrationJson = SlackIntegrationJson | ChatProviderIntegrationJson;

/** The registry's chat providers as this list names them. */
export interface ListedChatProvider {
  key: string;
  chat: { label: string; form: readonly SettingsField[] };
}

/** The workspace's chat integrations: Slack, then every chat provider of the registry, in its order. */
export async function listIntegrations(
  deps: { orm: MikroORM; notify: NotifyConfig; chatProviders: readonly ListedChatProvider[] },
  organizationId: string,
): Promise<IntegrationJson[]> {
  const [installation, counts] = await Promise.all([findSlackInstallation(deps.orm, organizationId), countDestinations(deps.orm, organizationId)]);
  const installer = installation?.installedBy
    ? await knexOf(deps.orm)('users')
        .select('id', 'name', 'email')
        .where({ id: installation.installedBy })
        .first<{ id: string; name: string | null; email: string } | undefined>()
    : undefined;
  const slack: SlackIntegrationJson = {
    provider: 'slack',
    configured: slackSettings(deps.notify) !== undefined,
    connected: installation !== undefined,
    team_id: installation?.slackTeamId ?? null,
    team_name: installation?.slackTeamName ?? null,
    installed_at: installation ? new Date(installation.createdAt).toISOString() : null,
    installed_by: installer ? { id: installer.id, name: installer.name, email: installer.email } : null,
  };
  const others = deps.chatProviders
    .filter((p) => p.key !== 'slack')
    .map((p): ChatProviderIntegrationJson => {
      const n = counts.get(p.key) ?? 0;
      return { provider: p.key, label: p.chat.label, configured: true, connected: n > 0, services_with_webhook: n, form: [...p.chat.form] };
    });
  return [slack, ...others];
}
