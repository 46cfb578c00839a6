import { z } from 'zod';
import { CHANNEL_IDS } from '../../../src/domain/channels';
import { PLANS } from '../../../src/domain/plans';
import { MAX_TARGET_LENGTH, TARGET_KEYS } from '../../../src/domain/inbound-webhook-targets';
import { WEBHOOK_NAME, WEBHOOK_STATUSES } from '../../../src/domain/inbound-webhooks';

/** The dashboard's names for a webhook's channels (spec "Webhook"). */
export const NOTIFICATION_TYPES = ['EMAIL', 'SMS', 'PUSH_NOTIF', 'CALL'] as const;

/** The dashboard form (spec "Create request (dashboard form)"): camelCase as the spec shows it. */
export const CreateWebhookBody = z
  .object({
    name: z
      .string()
      .trim()
      .min(WEBHOOK_NAME.min, `must be at least ${WEBHOOK_NAME.min} characters`)
      .max(WEBHOOK_NAME.max, `must be at most ${WEBHOOK_NAME.max} characters`),
    description: z.string().max(2000, 'must be at most 2000 characters').optional(),
    notificationTypes: z
      .array(z.enum(NOTIFICATION_TYPES, `must be one of ${NOTIFICATION_TYPES.join(', ')}`))
      .min(1, 'must name at least one notification type')
      .max(NOTIFICATION_TYPES.length, `must name at most ${NOTIFICATION_TYPES.length} notification types`)
      .describe('the channels it pages (Form B, by severity): EMAIL, SMS, PUSH_NOTIF, CALL'),
    targetChannels: z
      .record(
        z.string().max(32, 'must be at most 32 characters'),
        z.string().min(1, 'must not be empty').max(MAX_TARGET_LENGTH, `must be at most ${MAX_TARGET_LENGTH} characters`),
      )
      .refine((t) => Object.keys(t).length <= TARGET_KEYS.length, `must name at most ${TARGET_KEYS.length} channels`)
      .optional()
      .describe(
        'whom each channel reaches, keyed by lowercase channel (email, sms, call, push_notif; voice and push also accepted): ' +
          'an address (email address; E.164 number for sms and call) or the user id of a member of the workspace (reached on their own contact methods; ' +
          'the only form push_notif takes). A channel without a target reaches the owning team’s members.',
      ),
    service_id: z.uuid('must be a UUID').optional().describe('the service it routes to; optional when the workspace has exactly one'),
  })
  .strict();

/** What every dashboard schema says of a source's routing key (docs/compat-intake.md). */
export const ROUTING_KEY_DESCRIPTION =
  'its PagerDuty Events API v2 routing_key and Opsgenie GenieKey (32 lowercase hex): POST {ingest_url}/v2/enqueue or {ingest_url}/v2/alerts; rotating the source replaces it';

export const WebhookSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  alias: z.string(),
  description: z.string(),
  status: z.enum(WEBHOOK_STATUSES),
  webhook_url: z
    .string()
    .nullable()
    .describe('its secret ingestion URL (null for a webhook made before URLs were kept: rotate it under /api/sources to see one)'),
  receiver_url: z.string().describe('its Form B receiver'),
  routing_key: z.string().describe(ROUTING_KEY_DESCRIPTION),
  service_id: z.uuid(),
  channels: z.array(z.string()).nullable().describe('Form B names: sms, voice, email, push'),
  notification_types: z.array(z.string()).describe('EMAIL, SMS, PUSH_NOTIF, CALL'),
  target_channels: z
    .record(z.string(), z.string())
    .describe('as sent in targetChannels, keyed email, sms, call, push_notif; {} when every channel reaches the owning team'),
  signed: z.boolean(),
  ip_allowlist: z.array(z.string()),
  statistics: z.object({ total_calls: z.number().int(), successful_calls: z.number().int(), failed_calls: z.number().int() }),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});

export const CreatedWebhookSchema = WebhookSchema.extend({
  signing_secret: z.string().nullable().describe('for X-Service-Signature on its Form B receiver; shown this once'),
});

/** `GET /api/webhooks` answers this body exactly (spec "Dashboard routes"). */
export const WebhookListBody = z.object({
  success: z.literal(true),
  webhooks: z.array(WebhookSchema),
  total: z.number().int().describe('every webhook of the workspace, whatever the page'),
});

export const WebhookListQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(100),
    offset: z.coerce.number().int().min(0).default(0),
  })
  .strict();

export const TestResultSchema = z.object({
  webhook_id: z.uuid(),
  plan: z.enum(PLANS),
  email_only: z.boolean().describe('the plan pages by email only (FREE): every channel’s test went by email'),
  sends: z.array(
    z.object({
      notification_type: z.enum(NOTIFICATION_TYPES),
      channel: z.enum(CHANNEL_IDS as [string, ...string[]]).describe('the channel it went on: email when the plan sends it by email'),
      to: z.string().nullable().describe('null: nobody could be reached on this channel (see error)'),
      recipient: z.enum(['address', 'member', 'caller']).describe('the channel’s target address, its target member, or (no target) you'),
      status: z.enum(['sent', 'failed']),
      provider: z.string().nullable().describe('twilio, sendgrid, smtp, apns, fcm, or dev_inbox when the channel has no provider configured'),
      provider_message_id: z.string().optional(),
      error: z.string().optional(),
      fallback_reason: z.string().optional(),
    }),
  ),
});
