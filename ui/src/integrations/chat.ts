/**
 * Chat integrations on the dashboard (docs/chat.md): what /api/integrations and
 * /api/services/{id}/chat answer, the outcome of a Slack install as the callback reports it in
 * the page's query (`?slack=connected|error&reason=`), and the PUT body of the Chat dialog.
 */
import type { ChatProviderIntegrationJson } from '../../../src/services/chat/integrations';
import type { SlackIntegrationJson } from '../../../src/integrations/slack/connection';
import type { DestinationJson, ServiceChatJson } from '../../../src/services/chat/destinations';
import type { SettingsField } from '../../../src/integrations/types';

export type { ChatProviderIntegrationJson, DestinationJson, SettingsField, SlackIntegrationJson, ServiceChatJson };
/** One entry of GET /api/integrations: Slack's connection (the one provider declaring `connection`), or a chat provider set per service. */
export type IntegrationJson = SlackIntegrationJson | ChatProviderIntegrationJson;
/** The Microsoft Teams entry (registry key `microsoft-teams`). */
export type TeamsIntegrationJson = ChatProviderIntegrationJson;

/** GET /api/integrations/slack/channels: one channel. */
export interface SlackChannel {
  id: string;
  name: string;
  is_private: boolean;
}

/** POST /api/services/{id}/chat/teams/test's answer. */
export interface TeamsTestResult {
  delivered: boolean;
  status_code: number | null;
  error: string | null;
}

/** Query keys. */
export const INTEGRATIONS_KEY = ['integrations'] as const;
export const SLACK_CHANNELS_KEY = ['integrations', 'slack', 'channels'] as const;
export const serviceChatKey = (serviceId: string) => ['services', serviceId, 'chat'] as const;

const isSlack = (i: IntegrationJson): i is SlackIntegrationJson => i.provider === 'slack';

/** GET /api/integrations: Slack, Microsoft Teams, and every chat provider set per service (Teams among them), in the registry's order. */
export function integrationsOf(list: IntegrationJson[] | undefined): {
  slack?: SlackIntegrationJson;
  teams?: TeamsIntegrationJson;
  providers: ChatProviderIntegrationJson[];
} {
  const providers = (list ?? []).filter((i): i is ChatProviderIntegrationJson => !isSlack(i));
  return { slack: list?.find(isSlack), teams: providers.find((i) => i.provider === 'microsoft-teams'), providers };
}

/** A provider's form as typed: one text per field, empty when not typed. */
export type DestinationForm = Record<string, string>;

/** The PUT body of one provider's form: `{settings: {...}}`, fields left empty left out (the provider's schema says which are required). */
export function destinationBodyOf(fields: readonly SettingsField[], form: DestinationForm): { settings: Record<string, string> } {
  const settings: Record<string, string> = {};
  for (const f of fields) {
    const value = (form[f.name] ?? '').trim();
    if (value) settings[f.name] = value;
  }
  return { settings };
}

/** What the page says after Slack sent the browser back. */
export interface SlackNotice {
  ok: boolean;
  title: string;
  text: string;
}

const REASONS: Record<string, string> = {
  state: 'The connection link expired, was already used, or was started in another session. Start again with “Connect Slack”.',
  access_denied: 'The app was not allowed in Slack, so nothing was connected.',
  plan_limit_reached: 'Slack comes with STARTER and above: nothing was connected.',
  forbidden: 'Only Billing Owners and Account Admins connect Slack.',
  slack_not_configured: 'Slack is not configured on this Klaxon (the SLACK_* variables).',
};

/** The outcome in the page's query, or null when there is none. */
export function slackNoticeOf(search: string): SlackNotice | null {
  const q = new URLSearchParams(search);
  const slack = q.get('slack');
  if (slack === 'connected') return { ok: true, title: 'Slack connected', text: 'Choose a channel for each service under “Chat” on the Set up page.' };
  if (slack !== 'error') return null;
  const reason = q.get('reason') ?? 'unknown';
  return { ok: false, title: 'Slack was not connected', text: REASONS[reason] ?? `Slack answered “${reason}”. Try again, or ask your Slack admin.` };
}

/** The Chat dialog's fields: a channel id (NONE for none) and the Teams URL as typed. */
export interface ChatForm {
  slackChannelId: string;
  teamsWebhookUrl: string;
}

/** "No channel" in the picker. */
export const NONE = 'none';

export const chatFormOf = (chat: ServiceChatJson | undefined): ChatForm => ({
  slackChannelId: chat?.slack_channel_id ?? NONE,
  teamsWebhookUrl: chat?.teams_webhook_url ?? '',
});

/** The PUT body: only what changed (left out keeps; null clears). */
export function chatBodyOf(form: ChatForm, saved: ServiceChatJson | undefined): { slack_channel_id?: string | null; teams_webhook_url?: string | null } {
  const body: { slack_channel_id?: string | null; teams_webhook_url?: string | null } = {};
  const channel = form.slackChannelId === NONE ? null : form.slackChannelId;
  if (channel !== (saved?.slack_channel_id ?? null)) body.slack_channel_id = channel;
  const url = form.teamsWebhookUrl.trim() || null;
  if (url !== (saved?.teams_webhook_url ?? null)) body.teams_webhook_url = url;
  return body;
}

/** The channel picker's options: none, then every channel (the saved one even when Slack no longer lists it). */
export function channelOptions(channels: SlackChannel[] | undefined, saved: ServiceChatJson | undefined): Array<{ value: string; label: string }> {
  const options = [{ value: NONE, label: 'None' }, ...(channels ?? []).map((c) => ({ value: c.id, label: `${c.is_private ? '🔒' : '#'}${c.name}` }))];
  if (saved?.slack_channel_id && !options.some((o) => o.value === saved.slack_channel_id)) {
    options.push({ value: saved.slack_channel_id, label: `#${saved.slack_channel_name ?? saved.slack_channel_id}` });
  }
  return options;
}

/** A Teams test's outcome in words. */
export function teamsTestText(r: TeamsTestResult): string {
  if (r.delivered) return `Test card delivered${r.status_code !== null ? ` (HTTP ${r.status_code})` : ''}.`;
  const parts = [r.error, r.status_code !== null ? `HTTP ${r.status_code}` : null].filter(Boolean);
  return `Test card not delivered${parts.length ? `: ${parts.join(', ')}` : ''}.`;
}
