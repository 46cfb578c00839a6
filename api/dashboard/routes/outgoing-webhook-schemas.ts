import { z } from 'zod';
import { INCIDENT_EVENT_TYPES } from '../../../src/domain/incident-events';
import { MAX_TARGET_URL } from '../../../src/domain/targets';
import { MAX_DESCRIPTION, MAX_SERVICE_IDS } from '../../../src/services/outgoing-webhooks';

/** The bodies and answers of /api/outgoing-webhooks (docs/api/outgoing-webhooks.md). */

const EVENT_TYPE_LIST = INCIDENT_EVENT_TYPES.join(', ');

const fields = {
  url: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(MAX_TARGET_URL, `must be at most ${MAX_TARGET_URL} characters`)
    .describe('https:// (http:// only with ALLOW_PRIVATE_TARGETS); never a private or cloud metadata address'),
  description: z.string().trim().max(MAX_DESCRIPTION, `must be at most ${MAX_DESCRIPTION} characters`).nullable(),
  event_types: z
    .array(z.enum(INCIDENT_EVENT_TYPES, `must be event types: ${EVENT_TYPE_LIST}`))
    .min(1, 'must list at least one event type (leave it out, or null, for all)')
    .max(INCIDENT_EVENT_TYPES.length, `must list at most ${INCIDENT_EVENT_TYPES.length} event types`)
    .nullable()
    .describe('leave out or null: every event type'),
  service_ids: z
    .array(z.uuid('must be UUIDs'))
    .max(MAX_SERVICE_IDS, `must list at most ${MAX_SERVICE_IDS} services`)
    .nullable()
    .describe('leave out, null or []: every service'),
  enabled: z.boolean('must be true or false'),
};

export const CreateOutgoingWebhookBody = z
  .object({
    ...fields,
    description: fields.description.optional(),
    event_types: fields.event_types.optional(),
    service_ids: fields.service_ids.optional(),
    enabled: fields.enabled.optional(),
  })
  .strict();
export const UpdateOutgoingWebhookBody = z.object(fields).partial().strict();

export const OutgoingWebhookSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  description: z.string().nullable(),
  event_types: z.array(z.string()).describe('the event types it receives; every type when it takes all'),
  service_ids: z.array(z.uuid()).describe('the services whose incidents it receives; [] for every service'),
  enabled: z.boolean(),
  created_at: z.iso.datetime(),
});
export const CreatedOutgoingWebhookSchema = OutgoingWebhookSchema.extend({
  secret: z.string().describe('`whsec_` + base64 of 32 bytes: the signing secret, shown this once and never again'),
});

export const DeliverySchema = z.object({
  id: z.uuid(),
  event_id: z.uuid().describe('the `webhook-id` header; a redelivery keeps it'),
  type: z.string().describe('an event type, or `ping`'),
  attempts: z.number().int(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  latency_ms: z.number().int().nullable(),
  delivered_at: z.iso.datetime().nullable(),
  next_attempt_at: z.iso.datetime().nullable().describe('null once delivered or given up'),
});

export const DeliveryParams = z.object({ id: z.uuid('must be a UUID'), delivery_id: z.uuid('must be a UUID') });
