/**
 * Discord as a chat destination (docs/integrations.md, "Discord"): per service a channel webhook
 * URL (secret: the token is in its path), an embed per new incident and status change
 * (embed.ts), posted to `{webhook_url}?wait=true`. A 429 is retried on the one schedule, never
 * before its Retry-After; any other 4xx parks the delivery (a deleted webhook answers 404 forever).
 */
import { z } from 'zod';
import type { ChatAttempt, ChatDestination } from '../types';
import { discordApiOrigin } from './config';
import { DISCORD_EVENT_TYPES, incidentEmbed } from './embed';

/** How long one post may take. */
const ATTEMPT_TIMEOUT_MS = 10_000;

/** `https://discord.com/api/webhooks/{id}/{token}` (or discordapp.com, or ptb./canary.); linear. */
const WEBHOOK_PATH = /^\/api(?:\/v\d{1,2})?\/webhooks\/\d{1,25}\/[\w-]{1,100}$/;
const WEBHOOK_HOSTS = new Set(['discord.com', 'discordapp.com', 'ptb.discord.com', 'canary.discord.com']);

/** Whether a URL is a Discord channel webhook's. */
export function isDiscordWebhookUrl(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  return url.protocol === 'https:' && WEBHOOK_HOSTS.has(url.hostname) && url.port === '' && !url.username && !url.password && WEBHOOK_PATH.test(url.pathname);
}

export const DiscordSettings = z
  .object({
    webhook_url: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(512, 'must be at most 512 characters')
      .refine(isDiscordWebhookUrl, 'must be a Discord webhook URL (https://discord.com/api/webhooks/{id}/{token})'),
  })
  .strict();
export type DiscordSettings = z.infer<typeof DiscordSettings>;

/** Where a post goes: the webhook URL with DISCORD_API_URL's origin when set (tests), and `?wait=true`. */
export function postUrl(webhookUrl: string, apiOrigin: string | undefined): string {
  const url = new URL(webhookUrl);
  const target = new URL(`${url.pathname}`, apiOrigin ?? url.origin);
  target.searchParams.set('wait', 'true');
  return target.toString();
}

export const discordChat: ChatDestination<DiscordSettings> = {
  label: 'Discord',
  settings: DiscordSettings,
  form: [
    {
      name: 'webhook_url',
      label: 'Channel webhook URL',
      kind: 'url',
      required: true,
      secret: true,
      placeholder: 'https://discord.com/api/webhooks/…',
      help: 'In Discord: the channel’s settings → Integrations → Webhooks → New Webhook → Copy Webhook URL.',
    },
  ],
  eventTypes: DISCORD_EVENT_TYPES,
  async deliver(delivery, deps): Promise<ChatAttempt> {
    const { event } = delivery;
    const body = JSON.stringify(
      incidentEmbed({
        type: delivery.type,
        incident: delivery.incident,
        context: delivery.context,
        actorName: event.actor?.name ?? null,
        at: event.created_at,
        links: delivery.links,
      }),
    );
    const url = postUrl(delivery.settings.webhook_url, discordApiOrigin(deps.notify.env));
    const res = await deps.post(url, { headers: { 'User-Agent': 'Klaxon-Discord/1' }, body, timeoutMs: ATTEMPT_TIMEOUT_MS });
    const delivered = res.status !== null && res.status >= 200 && res.status < 300;
    const permanent = !delivered && res.status !== null && res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429;
    return {
      delivered,
      statusCode: res.status,
      error: delivered ? null : (res.error ?? `answered ${res.status}`),
      latencyMs: res.latencyMs,
      permanent,
      // A 429's Retry-After: Discord's rate limit lifts then, not on our schedule.
      ...(res.retryAfterMs !== undefined && { retryAfterMs: res.retryAfterMs }),
    };
  },
};
