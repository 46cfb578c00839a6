/**
 * The Slack app's manifest (docs/chat.md, "Connecting Slack"): what an operator pastes into
 * api.slack.com/apps → "Create New App" → "From an app manifest". Built from APP_URL by one pure
 * function; `deploy/slack/manifest.json` is the same with a placeholder URL (a unit test keeps
 * the two in step).
 */
import { trimSlash } from '../../config-env';

/** The bot scopes Klaxon asks for when a workspace installs the app. */
export const SLACK_BOT_SCOPES = [
  'chat:write',
  'chat:write.public',
  'commands',
  'channels:read',
  'groups:read',
  'users:read',
  'users:read.email',
  'im:write',
] as const;

/** The URL deploy/slack/manifest.json is written for. */
export const MANIFEST_PLACEHOLDER_URL = 'https://klaxon.example.com';

/** Where Slack sends the browser back after the install (`/hooks/slack/oauth`). */
export const slackRedirectUri = (appUrl: string): string => `${trimSlash(appUrl)}/hooks/slack/oauth`;

/** The manifest for a Klaxon at `appUrl` (no trailing slash needed). */
export function slackManifest(appUrl: string) {
  const base = trimSlash(appUrl);
  return {
    display_information: {
      name: 'Klaxon',
      description: 'Incidents from Klaxon in your channels: acknowledge and resolve them from Slack.',
      background_color: '#b3261e',
    },
    features: {
      bot_user: { display_name: 'Klaxon', always_online: true },
      slash_commands: [
        {
          command: '/klaxon',
          url: `${base}/hooks/slack/commands`,
          description: 'Who is on call, open incidents, acknowledge or resolve one',
          usage_hint: 'oncall [schedule] | incidents | ack N | resolve N',
          should_escape: false,
        },
      ],
    },
    oauth_config: {
      redirect_urls: [slackRedirectUri(base)],
      scopes: { bot: [...SLACK_BOT_SCOPES] },
    },
    settings: {
      interactivity: { is_enabled: true, request_url: `${base}/hooks/slack/interactions` },
      org_deploy_enabled: false,
      socket_mode_enabled: false,
      token_rotation_enabled: false,
    },
  };
}

export type SlackManifest = ReturnType<typeof slackManifest>;
