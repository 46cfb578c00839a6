/**
 * A service's chat destinations as the dashboard reads and changes them (docs/chat.md,
 * "Per-service destinations"): every check first (plan, Teams URL through the one SSRF guard,
 * the Slack channel looked up in Slack), then one write and its audit entry. A refused change
 * changes nothing. The Teams URL is a credential: shown in full only to those who may change it,
 * never in the audit log.
 */
import { checkTargetUrl } from '../../domain/targets';
import { knexOf } from '../../db/knex';
import { recordAudit, type AuditActor } from '../audit';
import { invalid } from '../errors';
import { assertChatPlan } from './chat-plan';
import { getServiceChat, setServiceChat, type ServiceChat, type ServiceChatChange } from './service-chat';
import { findSlackChannel } from '../../integrations/slack/channels';
import type { SlackWorkspaceDeps } from '../../integrations/slack/workspace';

export interface DestinationDeps extends SlackWorkspaceDeps {
  /** ALLOW_PRIVATE_TARGETS, as for outgoing webhooks. */
  allowPrivate: boolean;
}

/** A service's destinations as /api answers them. */
export interface ServiceChatJson {
  slack_channel_id: string | null;
  slack_channel_name: string | null;
  /** In full for those with services.manage on the service; else only its origin (`https://host/…`). */
  teams_webhook_url: string | null;
}

/** What a PUT gives: a field left out keeps its value, null clears it. */
export interface ServiceChatInput {
  slackChannelId?: string | null;
  teamsWebhookUrl?: string | null;
}

/** A Teams URL shown to someone who may not change it: its origin only (the signature is in the query). */
export const maskWebhookUrl = (url: string): string => {
  try {
    return `${new URL(url).origin}/…`;
  } catch {
    return '…';
  }
};

export const serviceChatJson = (chat: ServiceChat, full: boolean): ServiceChatJson => ({
  slack_channel_id: chat.slackChannelId,
  slack_channel_name: chat.slackChannelName,
  teams_webhook_url: chat.teamsWebhookUrl === null ? null : full ? chat.teamsWebhookUrl : maskWebhookUrl(chat.teamsWebhookUrl),
});

/** A service's destinations (all null when none were set). */
export async function readServiceChat(deps: Pick<DestinationDeps, 'orm' | 'sealer'>, serviceId: string, full: boolean): Promise<ServiceChatJson> {
  return serviceChatJson(await getServiceChat(deps.orm, deps.sealer, serviceId), full);
}

/** The Teams URL as the shared guard sees it (400 naming `teams_webhook_url`). */
function checkTeamsUrl(url: string, allowPrivate: boolean): void {
  const verdict = checkTargetUrl(url, { allowPrivate, who: 'Teams messages reach' });
  if (!verdict.ok) throw invalid(`teams_webhook_url: ${verdict.message}`);
}

/**
 * Changes a service's destinations (the caller checked services.manage): setting either on a
 * plan without chat is 403 `plan_limit_reached` (clearing is always allowed); the Teams URL must
 * pass the SSRF guard; the Slack channel must exist in the connected Slack (409
 * `slack_not_connected`, 400 naming `slack_channel_id`, 503 `slack_unavailable`).
 */
export async function changeServiceChat(
  deps: DestinationDeps,
  where: { organizationId: string; serviceId: string; audit: AuditActor },
  input: ServiceChatInput,
): Promise<ServiceChatJson> {
  const setting =
    (input.slackChannelId !== undefined && input.slackChannelId !== null) || (input.teamsWebhookUrl !== undefined && input.teamsWebhookUrl !== null);
  if (setting) await assertChatPlan(knexOf(deps.orm), where.organizationId);
  if (input.teamsWebhookUrl) checkTeamsUrl(input.teamsWebhookUrl, deps.allowPrivate);
  const change: ServiceChatChange = {};
  if (input.slackChannelId === null) change.slackChannel = null;
  else if (input.slackChannelId !== undefined) {
    const channel = await findSlackChannel(deps, where.organizationId, input.slackChannelId, 'slack_channel_id');
    change.slackChannel = { id: channel.id, name: channel.name };
  }
  if (input.teamsWebhookUrl !== undefined) change.teamsWebhookUrl = input.teamsWebhookUrl;
  const chat = await setServiceChat(deps.orm, deps.sealer, { organizationId: where.organizationId, serviceId: where.serviceId }, change);
  if (Object.keys(change).length > 0) {
    await recordAudit(deps.orm, {
      organizationId: where.organizationId,
      actor: where.audit,
      action: 'service.chat_update',
      targetType: 'service',
      targetId: where.serviceId,
      details: {
        ...(change.slackChannel !== undefined && { slack_channel_id: change.slackChannel?.id ?? null, slack_channel_name: change.slackChannel?.name ?? null }),
        // Whether it was set or cleared, never the URL: it is a credential.
        ...(change.teamsWebhookUrl !== undefined && { teams_webhook_url: change.teamsWebhookUrl === null ? 'cleared' : 'set' }),
      },
    });
  }
  return serviceChatJson(chat, true);
}
