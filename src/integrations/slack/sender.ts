/**
 * Slack DMs as a paging channel (docs/chat.md, "Slack DMs"): the workspace's Slack app opens a DM
 * with the member (`conversations.open`) and posts the incident's Block Kit message with its
 * buttons (`chat.postMessage`), which act through /hooks/slack/interactions.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import { slackSettings, type SlackConfig } from './config';
import { findSlackInstallation, openBotToken } from './installations';
import type { Sealer } from '../../services/sealing/seal';
import { notAcceptedFailure, permanentFailure, retryableFailure } from '../failures';
import type { ChannelProvider, ChannelSender, OutgoingPage, SentPage } from '../types';
import { incidentMessage } from './messages/blocks';
import { isPermanentSlackError, slackClient, slackErrorCode } from './web-api';

const PROVIDER = 'slack';

/** The `slack` sender: one DM per page, through the bot token of the page's workspace. */
export function createSlackSender(config: Pick<SlackConfig, 'apiUrl'>, deps: { orm: MikroORM; sealer?: Sealer }): ChannelSender {
  return {
    provider: PROVIDER,
    async send(page: OutgoingPage): Promise<SentPage> {
      if (!page.slack) throw permanentFailure(PROVIDER, 'the page was not rendered for Slack');
      if (!deps.sealer) throw permanentFailure(PROVIDER, 'this process cannot open Slack bot tokens (no KLAXON_SECRET given to the sender)');
      const installation = await findSlackInstallation(deps.orm, page.slack.organizationId);
      if (!installation) throw permanentFailure(PROVIDER, 'Slack is not connected to this workspace; connect it, then link Slack again');
      const token = openBotToken(deps.sealer, installation);
      if (!token) throw permanentFailure(PROVIDER, 'the Slack bot token cannot be opened (KLAXON_SECRET changed); reconnect Slack');
      const client = slackClient(config.apiUrl, token);
      let channel: string;
      try {
        const opened = await client.conversations.open({ users: page.to });
        if (!opened.channel?.id) throw new Error('conversations.open answered no channel');
        channel = opened.channel.id;
      } catch (err) {
        throw failure(err, 'conversations.open', token, true);
      }
      const message = incidentMessage(page.slack.view);
      try {
        const posted = await client.chat.postMessage({ channel, text: message.text, blocks: message.blocks, unfurl_links: false });
        return { provider: PROVIDER, providerMessageId: posted.ts ? `${channel}:${posted.ts}` : null };
      } catch (err) {
        throw failure(err, 'chat.postMessage', token, false);
      }
    },
  };
}

/** A Slack error as a delivery failure: permanent for a revoked token or an unknown user; the token never in the message. */
function failure(err: unknown, method: string, token: string, beforePosting: boolean): Error {
  const code = slackErrorCode(err);
  if (isPermanentSlackError(code)) return permanentFailure(PROVIDER, `${method}: ${code}`, [token]);
  // Before the post nothing can have been delivered: the retry is not marked as a maybe-twice.
  return beforePosting ? notAcceptedFailure(PROVIDER, `${method}: ${code}`, [token]) : retryableFailure(PROVIDER, `${method}: ${code}`, [token]);
}

/** The registry's `slack` provider: Slack DMs once the Slack app is configured (each workspace still needs its installation). */
export const slackProvider: ChannelProvider = (notify) => {
  const slack = slackSettings(notify);
  return (
    slack && {
      description: `Slack app ${slack.clientId} (each workspace's installation), via ${slack.apiUrl}`,
      connect: (deps) => ({ slack: createSlackSender(slack, deps) }),
    }
  );
};
