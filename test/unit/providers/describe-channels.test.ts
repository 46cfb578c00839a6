import { channelProviders, describeChannels } from '../../../src/integrations/wiring';
import { loadConfig } from '../../../src/config';
import { CHANNEL_IDS } from '../../../src/domain/channels';

/** The channels of the first integrations, in the order people see them; later ones follow (each tests its own line). */
const FIRST_CHANNELS = 7;

const notify = (env: Record<string, string>) => loadConfig(env).notify;

describe('describeChannels', () => {
  it('when nothing is configured, then every channel says dev inbox and which variables would enable it', () => {
    const lines = describeChannels(notify({}));
    expect(lines).toHaveLength(CHANNEL_IDS.length);
    for (const later of lines.slice(FIRST_CHANNELS)) expect(later).toMatch(/^Paging .+ dev inbox \(set [A-Z_, ]+ to send for real; see `klaxon inbox list`\)$/);
    expect(lines.slice(0, FIRST_CHANNELS)).toEqual([
      'Paging SMS       dev inbox (set TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM_NUMBER or the VONAGE_* group to send for real; see `klaxon inbox list`)',
      'Paging voice     dev inbox (set TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM_NUMBER or the VONAGE_* group to send for real; see `klaxon inbox list`)',
      'Paging email     dev inbox (set SENDGRID_API_KEY or SMTP_URL to send for real; see `klaxon inbox list`)',
      'Paging iOS push  dev inbox (set APNS_KEY, APNS_KEY_ID, APNS_TEAM_ID, APNS_TOPIC to send for real; see `klaxon inbox list`)',
      'Paging Android   dev inbox (set FCM_SERVICE_ACCOUNT to send for real; see `klaxon inbox list`)',
      'Paging web push  Web Push, VAPID keys in the data folder, subject mailto:klaxon@localhost',
      'Paging Slack DM  dev inbox (set SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_SIGNING_SECRET to send for real; see `klaxon inbox list`)',
    ]);
  });

  it('when providers are configured, then each line names its provider and endpoint override, and no credential appears', () => {
    const env = {
      TWILIO_ACCOUNT_SID: 'AC0123',
      TWILIO_AUTH_TOKEN: 'tw-secret-token',
      TWILIO_FROM_NUMBER: '+15550001111',
      TWILIO_API_BASE_URL: 'http://127.0.0.1:9001/',
      SENDGRID_API_KEY: 'SG.secret-key',
      SMTP_URL: 'smtps://mailer:smtp-secret-pw@mail.example.test:465',
      EMAIL_FROM: 'Pager <p@example.test>',
      APNS_KEY: '-----BEGIN PRIVATE KEY-----\napns-secret\n-----END PRIVATE KEY-----',
      APNS_KEY_ID: 'K',
      APNS_TEAM_ID: 'T',
      APNS_TOPIC: 'com.example.klaxon',
      APNS_PRODUCTION: 'true',
      FCM_SERVICE_ACCOUNT: JSON.stringify({ client_email: 'a@b.test', private_key: 'fcm-secret-key', project_id: 'acme-prod' }),
      SLACK_CLIENT_ID: '1111.2222',
      SLACK_CLIENT_SECRET: 'slack-client-secret',
      SLACK_SIGNING_SECRET: 'slack-signing-secret',
    };
    const lines = describeChannels(notify(env));
    expect(lines.slice(0, FIRST_CHANNELS)).toEqual([
      'Paging SMS       Twilio, from +15550001111 via http://127.0.0.1:9001',
      'Paging voice     Twilio, from +15550001111 via http://127.0.0.1:9001',
      'Paging email     SMTP relay smtps://mail.example.test:465, from Pager <p@example.test>',
      'Paging iOS push  APNs production, topic com.example.klaxon',
      'Paging Android   FCM, project acme-prod',
      'Paging web push  Web Push, VAPID keys in the data folder, subject mailto:p@example.test',
      "Paging Slack DM  Slack app 1111.2222 (each workspace's installation), via https://slack.com/api/",
    ]);
    for (const secret of [
      'tw-secret-token',
      'SG.secret-key',
      'smtp-secret-pw',
      'mailer',
      'apns-secret',
      'fcm-secret-key',
      'slack-client-secret',
      'slack-signing-secret',
    ])
      expect(lines.join('\n')).not.toContain(secret);
  });

  it('when only a SendGrid key is set, then email goes to SendGrid and the other channels stay in the dev inbox', () => {
    // Web push is always configured: its VAPID keys are generated into the data folder.
    const configured: Record<string, string> = { email: 'sendgrid', push_web: 'web-push' };
    expect(channelProviders(notify({ SENDGRID_API_KEY: 'SG.k' }))).toEqual(Object.fromEntries(CHANNEL_IDS.map((c) => [c, configured[c] ?? 'dev_inbox'])));
  });
});
