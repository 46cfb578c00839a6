import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_PLACEHOLDER_URL, SLACK_BOT_SCOPES, slackManifest } from '../../../../src/integrations/slack/manifest';

const DEPLOYED = join(__dirname, '../../../../deploy/slack/manifest.json');

describe('the Slack app manifest', () => {
  it('when built for the placeholder URL, then it is deploy/slack/manifest.json exactly (regenerate that file when the manifest changes)', () => {
    expect(JSON.parse(readFileSync(DEPLOYED, 'utf8'))).toEqual(slackManifest(MANIFEST_PLACEHOLDER_URL));
  });

  it('when built for an APP_URL, then every URL is under it: the slash command, the OAuth redirect, interactivity', () => {
    const m = slackManifest('https://klaxon.acme.test/');
    expect(m.display_information.name).toBe('Klaxon');
    expect(m.features.bot_user).toEqual({ display_name: 'Klaxon', always_online: true });
    expect(m.features.slash_commands).toEqual([
      expect.objectContaining({
        command: '/klaxon',
        url: 'https://klaxon.acme.test/hooks/slack/commands',
        usage_hint: 'oncall [schedule] | incidents | ack N | resolve N',
      }),
    ]);
    expect(m.oauth_config).toEqual({ redirect_urls: ['https://klaxon.acme.test/hooks/slack/oauth'], scopes: { bot: [...SLACK_BOT_SCOPES] } });
    expect(m.settings).toEqual({
      interactivity: { is_enabled: true, request_url: 'https://klaxon.acme.test/hooks/slack/interactions' },
      org_deploy_enabled: false,
      socket_mode_enabled: false,
      token_rotation_enabled: false,
    });
    expect([...SLACK_BOT_SCOPES]).toEqual([
      'chat:write',
      'chat:write.public',
      'commands',
      'channels:read',
      'groups:read',
      'users:read',
      'users:read.email',
      'im:write',
    ]);
  });
});
