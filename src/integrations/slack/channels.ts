/**
 * The channels of a workspace's Slack (docs/chat.md, "Per-service destinations"): the list the
 * channel picker shows (`conversations.list`, every page up to a cap) and one channel looked up
 * before it is stored as a service's destination (`conversations.info`).
 */
import { slackErrorCode } from './web-api';
import { invalid } from '../../services/errors';
import { slackUnavailable, workspaceSlack, type SlackWorkspaceDeps } from './workspace';

/** A channel as the dashboard shows it. */
export interface SlackChannelJson {
  id: string;
  name: string;
  is_private: boolean;
}

/** At most this many channels are listed (a huge Slack lists its first 2000; the picker searches within them). */
export const MAX_SLACK_CHANNELS = 2000;
/** Channels asked for per page (Slack's recommended maximum is 200). */
const PAGE_SIZE = 200;
/** Pages followed at most: Slack may answer short pages, and a cursor loop must end. */
const MAX_PAGES = 50;

interface SlackChannel {
  id?: string;
  name?: string;
  is_private?: boolean;
  is_archived?: boolean;
}

const channelJson = (c: SlackChannel): SlackChannelJson => ({ id: c.id!, name: c.name ?? c.id!, is_private: c.is_private === true });

/** The workspace's public and private channels the bot can see, not archived, by name; 409 when not connected, 503 when Slack fails. */
export async function listSlackChannels(deps: SlackWorkspaceDeps, organizationId: string): Promise<SlackChannelJson[]> {
  const { client } = await workspaceSlack(deps, organizationId);
  const channels: SlackChannelJson[] = [];
  let cursor: string | undefined;
  try {
    for (let page = 0; page < MAX_PAGES && channels.length < MAX_SLACK_CHANNELS; page += 1) {
      const res = await client.conversations.list({ types: 'public_channel,private_channel', exclude_archived: true, limit: PAGE_SIZE, cursor });
      for (const c of (res.channels ?? []) as SlackChannel[]) if (c.id && !c.is_archived) channels.push(channelJson(c));
      cursor = res.response_metadata?.next_cursor || undefined;
      if (!cursor) break;
    }
  } catch (err) {
    throw slackUnavailable(err);
  }
  return channels.slice(0, MAX_SLACK_CHANNELS).sort((a, b) => a.name.localeCompare(b.name));
}

/** Slack's answers that mean "no such channel for this bot", not "Slack is down". */
const UNKNOWN_CHANNEL = new Set(['channel_not_found', 'invalid_channel']);

/**
 * One channel of the workspace's Slack, to be stored as a destination: 400 naming `field` when
 * Slack knows no such channel (or it is archived), 409 when not connected, 503 when Slack fails.
 */
export async function findSlackChannel(deps: SlackWorkspaceDeps, organizationId: string, channelId: string, field: string): Promise<SlackChannelJson> {
  const { client } = await workspaceSlack(deps, organizationId);
  let channel: SlackChannel | undefined;
  try {
    channel = (await client.conversations.info({ channel: channelId })).channel as SlackChannel | undefined;
  } catch (err) {
    if (UNKNOWN_CHANNEL.has(slackErrorCode(err)))
      throw invalid(`${field}: no channel ${channelId} in the connected Slack workspace (private channels need the Klaxon app invited)`);
    throw slackUnavailable(err);
  }
  if (!channel?.id) throw invalid(`${field}: no channel ${channelId} in the connected Slack workspace`);
  if (channel.is_archived) throw invalid(`${field}: channel #${channel.name ?? channelId} is archived`);
  return channelJson(channel);
}
