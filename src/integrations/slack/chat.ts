/**
 * Slack as a chat destination (docs/chat.md, "Per-service destinations"): per service one channel
 * of the workspace's connected Slack. Storing one looks it up in Slack first (`resolveSettings`:
 * 409 `slack_not_connected`, 400 naming the field, 503 `slack_unavailable`) and keeps its name;
 * the Integrations page shows the workspace's connection (`connection`). Its messages are posted
 * by its own feed consumer (messages/deliverer.ts: one message per incident, updated and threaded),
 * so it declares no `deliver`.
 */
import { z } from 'zod';
import type { ChatDestination } from '../types';
import { findSlackChannel } from './channels';
import { slackConnection } from './connection';
import { slackSettings } from './config';

/** Slack channel ids: C (public), G (private), D (direct message); linear (as the older route's slack_channel_id). */
const SLACK_CHANNEL_ID = /^[CGD][A-Z0-9]{2,30}$/;

export const SlackChatSettings = z
  .object({
    channel_id: z.string().trim().max(32, 'must be at most 32 characters').regex(SLACK_CHANNEL_ID, 'must be a Slack channel id (C…, G… or D…)'),
  })
  .strict();
export type SlackChatSettings = z.infer<typeof SlackChatSettings>;

export const slackChat: ChatDestination<SlackChatSettings> = {
  label: 'Slack',
  settings: SlackChatSettings,
  form: [
    {
      name: 'channel_id',
      label: 'Channel',
      kind: 'text',
      required: true,
      secret: false,
      placeholder: 'C0123456789',
      help: 'A channel of the connected Slack; private channels need the Klaxon app invited.',
    },
  ],
  async resolveSettings(settings, ctx) {
    const channel = await findSlackChannel(
      { orm: ctx.orm, sealer: ctx.sealer, slack: slackSettings(ctx.notify) },
      ctx.organizationId,
      settings.channel_id,
      ctx.fieldName('channel_id'),
    );
    return { channel_id: channel.id, channel_name: channel.name };
  },
  connection: slackConnection,
};
