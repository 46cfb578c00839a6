/**
 * A workspace's way to Slack (docs/chat.md): its installation's bot token, opened, in a Web API
 * client pointed at SLACK_API_URL. The refusals every chat route shares live here.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import type { WebClient } from '@slack/web-api';
import type { SlackConfig } from './config';
import { slackClient, slackErrorCode } from './web-api';
import { conflict, DomainError } from '../../services/errors';
import type { Sealer } from '../../services/sealing/seal';
import { findSlackInstallation, openBotToken, type SlackInstallationRow } from './installations';

/** What talking to a workspace's Slack needs. */
export interface SlackWorkspaceDeps {
  orm: MikroORM;
  /** Opens the bot token (KLAXON_SECRET). */
  sealer: Sealer;
  /** The Slack app's variables; undefined: not configured. */
  slack: SlackConfig | undefined;
}

/** 409 `slack_not_configured`: the SLACK_* variables are not set on this Klaxon. */
export const slackNotConfigured = () =>
  conflict('Slack is not configured on this Klaxon: set SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_SIGNING_SECRET (docs/chat.md)', 'slack_not_configured');

/** 409 `slack_not_connected`: the workspace has not installed the Slack app (or its token cannot be opened). */
export const slackNotConnected = (why = 'this workspace has not connected Slack: connect it on the Integrations page') => conflict(why, 'slack_not_connected');

/** 503 `slack_unavailable`: Slack refused or could not be reached; nothing was changed. Slack's error code only, never a token. */
export const slackUnavailable = (err: unknown) =>
  new DomainError('unavailable', `Slack could not be reached or refused the call (${slackErrorCode(err)}); try again later`, 'slack_unavailable');

/** The Slack app's variables, or 409 `slack_not_configured`. */
export function configuredSlack(slack: SlackConfig | undefined): SlackConfig {
  if (!slack) throw slackNotConfigured();
  return slack;
}

/** The workspace's installation and a client with its bot token; 409 when Slack is not configured or not connected. */
export async function workspaceSlack(deps: SlackWorkspaceDeps, organizationId: string): Promise<{ installation: SlackInstallationRow; client: WebClient }> {
  const slack = configuredSlack(deps.slack);
  const installation = await findSlackInstallation(deps.orm, organizationId);
  if (!installation) throw slackNotConnected();
  const token = openBotToken(deps.sealer, installation);
  if (!token) throw slackNotConnected('the Slack bot token was stored under another KLAXON_SECRET: connect Slack again');
  return { installation, client: slackClient(slack.apiUrl, token) };
}
