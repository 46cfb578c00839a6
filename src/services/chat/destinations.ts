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
import {
  deleteDestination,
  getServiceChat,
  listDestinations,
  putDestination,
  setServiceChat,
  type ServiceChat,
  type ServiceChatChange,
  type StoredDestination,
} from './service-chat';
import type { ChatDestination } from '../../integrations/types';
import { findSlackChannel } from '../../integrations/slack/channels';
import { slackSettings } from '../../integrations/slack/config';
import type { SlackWorkspaceDeps } from '../../integrations/slack/workspace';
import type { NotifyConfig } from '../../config';

export interface DestinationDeps extends Omit<SlackWorkspaceDeps, 'slack'> {
  /** The Slack app's variables are read from it (src/integrations/slack/config.ts). */
  notify: NotifyConfig;
  /** ALLOW_PRIVATE_TARGETS, as for outgoing webhooks. */
  allowPrivate: boolean;
  /** The registry's chat providers (src/integrations/registry.ts): the destinations listed. */
  providers: readonly DestinationProvider[];
}

/** A service's destinations as /api answers them. */
export interface ServiceChatJson {
  /** Every provider the service posts to, secrets masked. */
  destinations: DestinationJson[];
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

export const serviceChatJson = (chat: ServiceChat, full: boolean, destinations: DestinationJson[]): ServiceChatJson => ({
  destinations,
  slack_channel_id: chat.slackChannelId,
  slack_channel_name: chat.slackChannelName,
  teams_webhook_url: chat.teamsWebhookUrl === null ? null : full ? chat.teamsWebhookUrl : maskWebhookUrl(chat.teamsWebhookUrl),
});

/** A service's destinations (all null when none were set). */
export async function readServiceChat(deps: Pick<DestinationDeps, 'orm' | 'sealer' | 'providers'>, serviceId: string, full: boolean): Promise<ServiceChatJson> {
  const [chat, destinations] = await Promise.all([getServiceChat(deps.orm, deps.sealer, serviceId), listServiceDestinations(deps, deps.providers, serviceId)]);
  return serviceChatJson(chat, full, destinations);
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
    const channel = await findSlackChannel({ ...deps, slack: slackSettings(deps.notify) }, where.organizationId, input.slackChannelId, 'slack_channel_id');
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
  return serviceChatJson(chat, true, await listServiceDestinations(deps, deps.providers, where.serviceId));
}

/** What the generic per-service routes need: the database, the sealer, ALLOW_PRIVATE_TARGETS. */
export type GenericDestinationDeps = Pick<DestinationDeps, 'orm' | 'sealer' | 'allowPrivate'>;

/** A chat provider as these functions see it: its registry key and what it declares (src/integrations/registry.ts). */
export interface DestinationProvider {
  key: string;
  chat: ChatDestination;
}

/** A destination as `/api/services/{id}/chat/{provider}` answers it: secret fields masked. */
export interface DestinationJson {
  provider: string;
  settings: Record<string, unknown>;
}

/** A secret shown back: its last four characters only (`…a1b2`), or `…` when it is short. */
export const maskSecret = (value: string): string => (value.length >= 16 ? `…${value.slice(-4)}` : '…');

/** A stored destination with its provider's secret fields masked. */
export function destinationJson(provider: DestinationProvider, stored: Pick<StoredDestination, 'settings'>): DestinationJson {
  const secret = new Set(provider.chat.form.filter((f) => f.secret).map((f) => f.name));
  const settings = Object.fromEntries(
    Object.entries(stored.settings).map(([name, value]) => [name, secret.has(name) && typeof value === 'string' ? maskSecret(value) : value]),
  );
  return { provider: provider.key, settings };
}

/** A service's destinations in the providers given (the registry's), masked; a row of a provider no module declares is left out. */
export async function listServiceDestinations(
  deps: Pick<DestinationDeps, 'orm' | 'sealer'>,
  providers: readonly DestinationProvider[],
  serviceId: string,
): Promise<DestinationJson[]> {
  const stored = await listDestinations(deps.orm, deps.sealer, serviceId);
  return stored.flatMap((s) => {
    const provider = providers.find((p) => p.key === s.provider);
    return provider ? [destinationJson(provider, s)] : [];
  });
}

/** The provider's schema's verdict on the settings given: parsed, or a 400 naming `settings.<field>`. */
export function parseDestinationSettings(provider: DestinationProvider, raw: unknown, allowPrivate: boolean): Record<string, unknown> {
  const parsed = provider.chat.settings.safeParse(raw);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    const field = issue.path.length > 0 ? `settings.${issue.path.map(String).join('.')}` : 'settings';
    throw invalid(`${field}: ${issue.message}`);
  }
  // URL fields pass the one SSRF guard before they are stored (and again at every send, by the poster).
  for (const field of provider.chat.form) {
    const value = parsed.data[field.name];
    if (field.kind !== 'url' || typeof value !== 'string') continue;
    const verdict = checkTargetUrl(value, { allowPrivate, who: `${provider.chat.label} messages reach` });
    if (!verdict.ok) throw invalid(`settings.${field.name}: ${verdict.message}`);
  }
  return parsed.data;
}

/**
 * Sets a service's destination in one provider (the caller checked services.manage): the
 * settings through the provider's schema and the SSRF guard (400 naming `settings.<field>`), the
 * plan must include chat (403 `plan_limit_reached`), then one write and its audit entry, which
 * names the provider and never a secret. A refused change changes nothing.
 */
export async function putServiceDestination(
  deps: GenericDestinationDeps,
  where: { organizationId: string; serviceId: string; audit: AuditActor },
  provider: DestinationProvider,
  raw: unknown,
): Promise<DestinationJson> {
  const settings = parseDestinationSettings(provider, raw, deps.allowPrivate);
  await assertChatPlan(knexOf(deps.orm), where.organizationId);
  const secretFields = provider.chat.form.filter((f) => f.secret).map((f) => f.name);
  await putDestination(
    deps.orm,
    deps.sealer,
    { organizationId: where.organizationId, serviceId: where.serviceId, provider: provider.key },
    settings,
    secretFields,
  );
  await recordAudit(deps.orm, {
    organizationId: where.organizationId,
    actor: where.audit,
    action: 'service.chat_update',
    targetType: 'service',
    targetId: where.serviceId,
    details: { provider: provider.key, settings: Object.keys(settings).sort(), set: true },
  });
  return destinationJson(provider, { settings });
}

/** Removes a service's destination in one provider, audited; false when there was none (still no error: idempotent). */
export async function deleteServiceDestination(
  deps: Pick<DestinationDeps, 'orm'>,
  where: { organizationId: string; serviceId: string; audit: AuditActor },
  provider: DestinationProvider,
): Promise<boolean> {
  const removed = await deleteDestination(deps.orm, where.serviceId, provider.key);
  if (removed) {
    await recordAudit(deps.orm, {
      organizationId: where.organizationId,
      actor: where.audit,
      action: 'service.chat_update',
      targetType: 'service',
      targetId: where.serviceId,
      details: { provider: provider.key, set: false },
    });
  }
  return removed;
}
