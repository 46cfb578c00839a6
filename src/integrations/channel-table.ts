/**
 * The paging channels every integration declares (its `channel.ts`), in the order people see
 * them: the pure view of the registry that src/domain/channels.ts reads (no sender, hook or SDK
 * is reachable from here). An integration that owns a channel adds its declarations here and its
 * module to src/integrations/registry.ts.
 */
import { apnsChannels } from './apns/channel';
import { emailChannels } from './email/channel';
import { fcmChannels } from './fcm/channel';
import { pushoverChannels } from './pushover/channel';
import { slackChannels } from './slack/dm-channel';
import { twilioChannels } from './twilio/channel';
import { webPushChannels } from './web-push/channel';

export const CHANNEL_TABLE = {
  ...twilioChannels,
  ...emailChannels,
  ...apnsChannels,
  ...fcmChannels,
  ...webPushChannels,
  ...slackChannels,
  ...pushoverChannels,
} as const;
