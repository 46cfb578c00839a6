import { z } from 'zod';
import { MAX_TARGET_URL } from '../../../src/domain/targets';

/** The answers and bodies of /api/integrations and /api/services/{id}/chat (docs/chat.md). */

const SlackIntegrationSchema = z.object({
  provider: z.literal('slack'),
  configured: z.boolean().describe('SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_SIGNING_SECRET are set'),
  connected: z.boolean().describe('the workspace installed the Slack app'),
  team_id: z.string().nullable(),
  team_name: z.string().nullable(),
  installed_at: z.iso.datetime().nullable().describe('when the workspace first connected this Slack'),
  installed_by: z.object({ id: z.uuid(), name: z.string().nullable(), email: z.string() }).nullable().describe('null when not connected or the member left'),
});

const ChatProviderIntegrationSchema = z.object({
  provider: z.string().describe('the chat provider’s registry key: `microsoft-teams`, `discord`, `mattermost`, …'),
  label: z.string().describe('what the dashboard calls it'),
  configured: z.literal(true).describe('needs no app: each service takes its own settings (a webhook URL)'),
  connected: z.boolean().describe('at least one service posts to it'),
  services_with_webhook: z.number().int().describe('how many services post to it'),
  form: z
    .array(
      z.object({
        name: z.string(),
        label: z.string(),
        kind: z.enum(['url', 'text']),
        required: z.boolean(),
        secret: z.boolean().describe('write-only: answered masked'),
        placeholder: z.string().optional(),
        help: z.string().optional(),
      }),
    )
    .describe('its per-service settings form, as data the dashboard renders'),
});

export const IntegrationsSchema = z.object({ integrations: z.array(z.union([SlackIntegrationSchema, ChatProviderIntegrationSchema])) });

export const SlackChannelsSchema = z.object({
  channels: z.array(z.object({ id: z.string(), name: z.string(), is_private: z.boolean() })).describe('by name; at most 2000'),
});

export const SlackManifestSchema = z.record(z.string(), z.unknown()).describe('the Slack app manifest with this Klaxon’s URLs (not in the envelope)');

/** Slack channel ids: C (public), G (private), D (direct message); linear regex. */
export const SLACK_CHANNEL_ID = /^[CGD][A-Z0-9]{2,30}$/;

/** The most settings a destination takes, and the longest a value may be: a webhook URL fits. */
const MAX_SETTINGS = 20;

/** `PUT /api/services/{id}/chat/{provider}`: the provider's settings, checked against its own schema (400 naming `settings.<field>`). */
export const PutChatDestinationBody = z
  .object({
    settings: z
      .record(z.string().max(64, 'a settings key is at most 64 characters'), z.union([z.string().max(MAX_TARGET_URL), z.number(), z.boolean(), z.null()]))
      .refine((s) => Object.keys(s).length <= MAX_SETTINGS, `at most ${MAX_SETTINGS} settings`)
      .describe('the provider’s settings, as its form in the dashboard declares them (e.g. `{"webhook_url": "https://…"}`)'),
  })
  .strict();

export const ChatDestinationSchema = z.object({
  provider: z.string().describe('the chat provider’s registry key'),
  settings: z.record(z.string(), z.unknown()).describe('its settings; secret ones (a webhook URL) masked as `…` and their last four characters'),
});

/** Path of one service's destination in one provider. */
export const ChatDestinationParams = z.object({
  id: z.uuid('must be a UUID'),
  provider: z
    .string()
    .max(64, 'must be at most 64 characters')
    .regex(/^[a-z][a-z0-9-]*$/, 'must be a provider key'),
});

export const ServiceChatSchema = z.object({
  destinations: z.array(ChatDestinationSchema).describe('every chat provider the service posts to, by provider key, secrets masked'),
  slack_channel_id: z.string().nullable(),
  slack_channel_name: z.string().nullable().describe('the channel’s name when it was chosen'),
  teams_webhook_url: z.string().nullable().describe('in full for members who may change the service (services.manage); others see `https://host/…`'),
});

export const UpdateServiceChatBody = z
  .object({
    slack_channel_id: z
      .string()
      .trim()
      .max(32, 'must be at most 32 characters')
      .regex(SLACK_CHANNEL_ID, 'must be a Slack channel id (C…, G… or D…)')
      .nullable()
      .optional()
      .describe('a channel of the connected Slack; null clears it; left out keeps it'),
    teams_webhook_url: z
      .string()
      .trim()
      .min(1, 'must not be empty (null clears it)')
      .max(MAX_TARGET_URL, `must be at most ${MAX_TARGET_URL} characters`)
      .nullable()
      .optional()
      .describe('a Teams Workflows webhook URL: https:// (http:// only with ALLOW_PRIVATE_TARGETS), never a private or cloud metadata address; null clears it'),
  })
  .strict();
