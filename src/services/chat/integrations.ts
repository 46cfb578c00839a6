/**
 * What the Integrations page shows (docs/chat.md): every chat provider the registry declares
 * (src/integrations/registry.ts), given by the caller. A provider that needs a workspace-wide
 * connection (ChatDestination `connection`: Slack's app install) comes first, as it says; every
 * other comes with its form and how many services post to it. Never a token or a URL.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import type { NotifyConfig } from '../../config';
import { countDestinations } from './service-chat';
import type { ChatConnectionJson, ChatDestination, SettingsField } from '../../integrations/types';

/** A chat provider's workspace connection (Slack's: its team, who connected it), as its module answers it, under its registry key. */
export type ConnectionIntegrationJson = { provider: string } & ChatConnectionJson;

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

export type IntegrationJson = ConnectionIntegrationJson | ChatProviderIntegrationJson;

/** The registry's chat providers as this list names them. */
export interface ListedChatProvider {
  key: string;
  chat: Pick<ChatDestination, 'label' | 'form' | 'connection'>;
}

/** The workspace's chat integrations: those with a connection (Slack), then every other chat provider, each in registry order. */
export async function listIntegrations(
  deps: { orm: MikroORM; notify: NotifyConfig; chatProviders: readonly ListedChatProvider[] },
  organizationId: string,
): Promise<IntegrationJson[]> {
  const connection = async (p: ListedChatProvider): Promise<ConnectionIntegrationJson[]> => {
    const json = await p.chat.connection?.(deps, organizationId);
    return json ? [{ provider: p.key, ...json }] : [];
  };
  const [connections, counts] = await Promise.all([Promise.all(deps.chatProviders.map(connection)), countDestinations(deps.orm, organizationId)]);
  const others = deps.chatProviders
    .filter((p) => !p.chat.connection)
    .map((p): ChatProviderIntegrationJson => {
      const n = counts.get(p.key) ?? 0;
      return { provider: p.key, label: p.chat.label, configured: true, connected: n > 0, services_with_webhook: n, form: [...p.chat.form] };
    });
  return [...connections.flat(), ...others];
}
