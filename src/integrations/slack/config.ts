/**
 * The Slack app's variables (docs/chat.md): client id, client secret and signing secret together,
 * or none (then chat shows "not configured" and Slack DMs are not offered). SLACK_API_URL and
 * SLACK_AUTHORIZE_URL point the Web API client and the install redirect elsewhere (the test fake).
 */
import { z } from 'zod';
import type { NotifyConfig } from '../../config';
import { group } from '../../config-env';
import { integrationSettings } from '../settings';

export const slackEnv = z.object({
  SLACK_CLIENT_ID: z.string().min(1).max(200).optional(),
  SLACK_CLIENT_SECRET: z.string().min(1).max(500).optional(),
  SLACK_SIGNING_SECRET: z.string().min(1).max(500).optional(),
  SLACK_API_URL: z.string().url().default('https://slack.com/api/'),
  SLACK_AUTHORIZE_URL: z.string().url().default('https://slack.com/oauth/v2/authorize'),
});

export interface SlackConfig {
  clientId: string;
  clientSecret: string;
  signingSecret: string;
  /** The Web API base URL, ending in a slash (the form `@slack/web-api`'s `slackApiUrl` wants). */
  apiUrl: string;
  /** Where the install redirect sends the browser. */
  authorizeUrl: string;
}

/** The Slack app's settings once its three credentials are set; undefined: Slack is not configured. */
export const slackSettings: (notify: NotifyConfig) => SlackConfig | undefined = integrationSettings(slackEnv, slackConfig);

function slackConfig(e: z.infer<typeof slackEnv>): SlackConfig | undefined {
  const slack = group(e, ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET', 'SLACK_SIGNING_SECRET']);
  return (
    slack && {
      clientId: slack.SLACK_CLIENT_ID,
      clientSecret: slack.SLACK_CLIENT_SECRET,
      signingSecret: slack.SLACK_SIGNING_SECRET,
      apiUrl: e.SLACK_API_URL.endsWith('/') ? e.SLACK_API_URL : `${e.SLACK_API_URL}/`,
      authorizeUrl: e.SLACK_AUTHORIZE_URL,
    }
  );
}
