import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { FORM_B_CHANNEL_LIST } from '../../src/domain/paging/form-b-channels';
import { WEBHOOK_NAME, WEBHOOK_STATUSES } from '../../src/domain/inbound-webhooks';

extendZodWithOpenApi(z);

/** Zod schemas of the API-key surface: the validators and its OpenAPI document both use these. */

export const EnvelopeErrorSchema = z
  .object({ success: z.literal(false), error: z.string(), code: z.string(), timestamp: z.string().datetime() })
  .openapi('LegacyError', { description: 'Every error: a message, a machine-readable code and when it happened.' });

const timestamp = z.string().datetime().openapi({ format: 'date-time' });
const name = z
  .string()
  .trim()
  .min(WEBHOOK_NAME.min, `name must be at least ${WEBHOOK_NAME.min} characters`)
  .max(WEBHOOK_NAME.max, `name must be at most ${WEBHOOK_NAME.max} characters`);
const channels = z
  .array(z.string(), { message: 'channels must be an array of channel names' })
  .min(1, 'channels must name at least one channel')
  .openapi({ description: `lowercase channel names: ${FORM_B_CHANNEL_LIST}` });
const cidrs = z.array(z.string(), { message: 'ip_allowlist must be an array of IPv4/IPv6 addresses or CIDRs' }).max(100, 'at most 100 ip_allowlist entries');

export const PageQuery = z.object({
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(100, 'limit must be at most 100')
    .default(50),
  offset: z.coerce.number({ message: 'offset must be a number' }).int('offset must be a whole number').min(0, 'offset must be 0 or more').default(0),
});

export const IdParams = z.object({ id: z.string().openapi({ format: 'uuid' }) });
export const WebhookIdParams = z.object({ webhook_id: z.string().openapi({ format: 'uuid' }) });

export const WebhookSchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    alias: z.string(),
    description: z.string(),
    status: z.enum(WEBHOOK_STATUSES),
    webhook_url: z
      .string()
      .url()
      .nullable()
      .openapi({ description: 'its secret ingestion URL (Form A and native payloads); null until rotated for a source made before URLs were kept' }),
    receiver_url: z.string().url().openapi({ description: 'its Form B receiver: POST {legacy_api_url}/webhook/{id}' }),
    routing_key: z.string().openapi({
      description: 'its PagerDuty Events API v2 routing_key and Opsgenie GenieKey (32 lowercase hex): POST {ingest_url}/v2/enqueue, {ingest_url}/v2/alerts',
    }),
    service_id: z.string().uuid(),
    channels: z.array(z.string()),
    notification_types: z.array(z.string()).openapi({ description: 'the channels as the dashboard names them: SMS, CALL, EMAIL, PUSH_NOTIF' }),
    signed: z.boolean().openapi({ description: 'senders must sign with X-Service-Signature' }),
    ip_allowlist: z.array(z.string()),
    statistics: z.object({ total_calls: z.number().int(), successful_calls: z.number().int(), failed_calls: z.number().int() }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .openapi('Webhook');

export const CreatedWebhookSchema = WebhookSchema.extend({
  signing_secret: z.string().nullable().openapi({ description: 'shown this once; null when created with signed: false' }),
}).openapi('CreatedWebhook');

export const CreateWebhookBody = z
  .object({
    name,
    channels,
    description: z.string().max(2000, 'description must be at most 2000 characters').optional(),
    alias: z.string().trim().min(1).max(255).optional(),
    service_id: z
      .string()
      .uuid({ message: 'service_id must be a UUID' })
      .optional()
      .openapi({ description: 'the service it routes to; optional when the workspace has one' }),
    ip_allowlist: cidrs.optional(),
    signed: z.boolean().optional().openapi({ description: 'false: no signing secret; default true' }),
  })
  .strict()
  .openapi('CreateWebhook');

export const UpdateWebhookBody = z
  .object({
    name: name.optional(),
    channels: channels.optional(),
    description: z.string().max(2000, 'description must be at most 2000 characters').nullable().optional(),
    alias: z.string().trim().min(1).max(255).optional(),
    status: z.enum(WEBHOOK_STATUSES, { message: `status must be one of ${WEBHOOK_STATUSES.join(', ')}` }).optional(),
    ip_allowlist: cidrs.optional(),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'send at least one field to change')
  .openapi('UpdateWebhook');

export const DeletedSchema = z.object({ id: z.string().uuid(), deleted: z.literal(true) }).openapi('Deleted');
export const SigningSecretSchema = z.object({ id: z.string().uuid(), signing_secret: z.string() }).openapi('SigningSecret');

export const ReceivedSchema = z
  .object({ event_id: z.string().uuid().nullable(), incident_id: z.string().uuid().nullable(), duplicate: z.boolean() })
  .openapi('Received', { description: 'what the call stored: its alert (event) and incident; duplicate: an Idempotency-Key replay' });

export const FormBBody = z
  .object({
    title: z.string().max(255),
    message: z.string().optional(),
    severity: z.enum(['critical', 'warning', 'info']).optional().openapi({ description: 'default info (email only)' }),
    source: z.string().optional(),
    tags: z.record(z.string(), z.string()).optional(),
    url: z.string().url().optional(),
  })
  .openapi('FormB', { description: 'Form B; native payloads of the ingestion surface are accepted too' });
