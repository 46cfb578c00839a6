/**
 * Mattermost as a chat destination (docs/integrations.md, "Mattermost"): per service an incoming
 * webhook URL (secret: its key is the credential), a post per new incident and status change
 * with interactive buttons (message.ts). Any 4xx but 408 and 429 parks the delivery.
 */
import { z } from 'zod';
import { MAX_TARGET_URL } from '../../domain/targets';
import type { ChatAttempt, ChatDestination } from '../types';
import { incidentMessage, MATTERMOST_ACTION_PATH, MATTERMOST_EVENT_TYPES } from './message';

const ATTEMPT_TIMEOUT_MS = 10_000;

/** An incoming webhook's path ends `/hooks/{key}`, the key 26 lower-case letters and digits; linear. */
const HOOK_PATH = /\/hooks\/[a-z0-9]{26}$/;

export function isMattermostWebhookUrl(raw: string): boolean {
  try {
    return HOOK_PATH.test(new URL(raw).pathname);
  } catch {
    return false;
  }
}

export const MattermostSettings = z
  .object({
    webhook_url: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(MAX_TARGET_URL, `must be at most ${MAX_TARGET_URL} characters`)
      .refine(isMattermostWebhookUrl, 'must be a Mattermost incoming webhook URL (https://your-mattermost/hooks/{key})'),
  })
  .strict();
export type MattermostSettings = z.infer<typeof MattermostSettings>;

export const mattermostChat: ChatDestination<MattermostSettings> = {
  label: 'Mattermost',
  settings: MattermostSettings,
  form: [
    {
      name: 'webhook_url',
      label: 'Incoming webhook URL',
      kind: 'url',
      required: true,
      secret: true,
      placeholder: 'https://mattermost.example.com/hooks/…',
      help: 'In Mattermost: Integrations → Incoming Webhooks → Add Incoming Webhook, pick the channel, copy the URL.',
    },
  ],
  eventTypes: MATTERMOST_EVENT_TYPES,
  async deliver(delivery, deps): Promise<ChatAttempt> {
    const { event, links } = delivery;
    const body = JSON.stringify(
      incidentMessage({
        type: delivery.type,
        incident: delivery.incident,
        context: delivery.context,
        actorName: event.actor?.name ?? null,
        at: event.created_at,
        incidentUrl: links.incident,
        actionUrl: `${deps.appUrl}${MATTERMOST_ACTION_PATH}`,
        tokens: {
          acknowledge: links.acknowledge ? delivery.signAction('acknowledge') : null,
          resolve: links.resolve ? delivery.signAction('resolve') : null,
        },
      }),
    );
    const res = await deps.post(delivery.settings.webhook_url, { headers: { 'User-Agent': 'Klaxon-Mattermost/1' }, body, timeoutMs: ATTEMPT_TIMEOUT_MS });
    const delivered = res.status !== null && res.status >= 200 && res.status < 300;
    const permanent = !delivered && res.status !== null && res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429;
    return { delivered, statusCode: res.status, error: delivered ? null : (res.error ?? `answered ${res.status}`), latencyMs: res.latencyMs, permanent };
  },
};
