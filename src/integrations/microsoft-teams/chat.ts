/**
 * Microsoft Teams as a chat destination (docs/chat.md, "Microsoft Teams"): per service a Workflows
 * webhook URL (secret: the URL carries its own signature), an Adaptive Card per new incident and
 * per status change (card.ts) with signed one-use action links.
 */
import { z } from 'zod';
import { MAX_TARGET_URL } from '../../domain/targets';
import type { ChatAttempt, ChatDestination } from '../types';
import { incidentCard, isTeamsEventType, TEAMS_EVENT_TYPES } from './card';
import { ATTEMPT_TIMEOUT_MS } from '../outgoing-webhooks/schedule';

export const TeamsSettings = z
  .object({
    webhook_url: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(MAX_TARGET_URL, `must be at most ${MAX_TARGET_URL} characters`)
      .describe('a Teams Workflows webhook URL'),
  })
  .strict();
export type TeamsSettings = z.infer<typeof TeamsSettings>;

/** A 4xx Teams will answer again however often it is asked (a deleted flow, a bad signature); 408 and 429 heal. */
export const isPermanentRefusal = (status: number | null): boolean => status !== null && status >= 400 && status < 500 && status !== 408 && status !== 429;

export const teamsChat: ChatDestination<TeamsSettings> = {
  label: 'Microsoft Teams',
  settings: TeamsSettings,
  form: [
    {
      name: 'webhook_url',
      label: 'Workflows webhook URL',
      kind: 'url',
      required: true,
      secret: true,
      placeholder: 'https://prod-00.westeurope.logic.azure.com/workflows/…',
      help: 'In Teams: the channel’s ••• menu → Workflows → “Post to a channel when a webhook request is received”.',
    },
  ],
  eventTypes: TEAMS_EVENT_TYPES,
  async deliver(delivery, deps): Promise<ChatAttempt> {
    const { event, type } = delivery;
    if (!isTeamsEventType(type)) return { delivered: false, statusCode: null, error: `not a card event (${type})`, latencyMs: 0, permanent: true };
    const body = JSON.stringify(
      incidentCard({
        type,
        incident: delivery.incident,
        ...delivery.context,
        actorName: event.actor?.name ?? null,
        stepNumber: typeof event.data.step_number === 'number' ? event.data.step_number : null,
        operation: typeof event.data.operation === 'string' ? event.data.operation : null,
        at: event.created_at,
        links: delivery.links,
      }),
    );
    const res = await deps.post(delivery.settings.webhook_url, { headers: { 'User-Agent': 'Klaxon-Teams/1' }, body, timeoutMs: ATTEMPT_TIMEOUT_MS });
    const delivered = res.status !== null && res.status >= 200 && res.status < 300;
    return {
      delivered,
      statusCode: res.status,
      error: delivered ? null : (res.error ?? `answered ${res.status}`),
      latencyMs: res.latencyMs,
      permanent: !delivered && isPermanentRefusal(res.status),
    };
  },
};
