import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { envUnderCurrentNames, loadConfig } from '../../src/config';
import { channelProviders } from '../../src/integrations/wiring';
import { apnsSettings } from '../../src/integrations/apns';
import { emailFrom } from '../../src/integrations/email';
import { fcmSettings } from '../../src/integrations/fcm';
import { sendgridSettings } from '../../src/integrations/sendgrid';
import { slackSettings } from '../../src/integrations/slack/config';
import { smtpUrl } from '../../src/integrations/smtp';
import { twilioSettings } from '../../src/integrations/twilio';
import { webPushSettings } from '../../src/integrations/web-push';
import { startupError, startWith } from '../support/startup';

describe('configuration', () => {
  it('when nothing is set, then the embedded defaults and ports 3000-3002 apply', () => {
    const c = loadConfig({});
    expect(c.ports).toEqual({ app: 3000, ingest: 3001, apiKey: 3002 });
    expect(c.urls).toEqual({ app: 'http://localhost:3000', ingest: 'http://localhost:3001', apiKey: 'http://localhost:3002' });
    expect(c.databaseUrl).toBeUndefined();
    expect(c.temporal.address).toBeUndefined();
    expect(c.temporal.namespace).toBe('default');
    expect(c.dataDir).toMatch(/\.klaxon$/);
  });

  it('when the old LEGACY_* names are set, then they are still read, each with one warning naming its API_KEY_* name; the new name wins over the old', () => {
    const old = loadConfig({ LEGACY_PORT: '4102', LEGACY_API_URL: 'https://keys.example.com/', LEGACY_RATE_LIMIT_PER_KEY: '7' });
    expect(old.ports.apiKey).toBe(4102);
    expect(old.urls.apiKey).toBe('https://keys.example.com');
    expect(old.apiKey.requestsPerSecondPerKey).toBe(7);
    expect(old.warnings).toEqual([
      expect.stringMatching(/^LEGACY_PORT .*set API_KEY_PORT instead/),
      expect.stringMatching(/^LEGACY_API_URL .*set API_KEY_API_URL instead/),
      expect.stringMatching(/^LEGACY_RATE_LIMIT_PER_KEY .*set API_KEY_RATE_LIMIT_PER_KEY instead/),
    ]);
    const both = loadConfig({ LEGACY_PORT: '4102', API_KEY_PORT: '4202' });
    expect(both.ports.apiKey).toBe(4202);
    expect(both.warnings).toEqual([expect.stringMatching(/^LEGACY_PORT .*ignored: API_KEY_PORT is set/)]);
    const current = loadConfig({ API_KEY_PORT: '4202', API_KEY_RATE_LIMIT_PER_KEY: '3' });
    expect({ port: current.ports.apiKey, rate: current.apiKey.requestsPerSecondPerKey, warnings: current.warnings }).toEqual({
      port: 4202,
      rate: 3,
      warnings: [],
    });
    expect(() => loadConfig({ LEGACY_PORT: 'x' })).toThrow(/API_KEY_PORT/);
  });

  it('when the cluster hands its environment to its processes, then old names travel under their new names only', () => {
    expect(envUnderCurrentNames({ LEGACY_PORT: '4102', LEGACY_RATE_LIMIT_PER_KEY: '7', API_KEY_API_URL: 'https://k.example.com', OTHER: 'x' })).toEqual({
      API_KEY_PORT: '4102',
      API_KEY_RATE_LIMIT_PER_KEY: '7',
      API_KEY_API_URL: 'https://k.example.com',
      OTHER: 'x',
    });
  });

  it('when ports move, then the derived URLs follow unless URLs are given', () => {
    const c = loadConfig({ APP_PORT: '4100', INGEST_PORT: '4101', INGEST_URL: 'https://in.example.com/' });
    expect(c.urls.app).toBe('http://localhost:4100');
    expect(c.urls.ingest).toBe('https://in.example.com');
  });

  it('when SIGNUP_RATE_LIMIT_PER_IP is unset, then 10 sign-ups per IP an hour; set, it is a positive whole number', () => {
    expect(loadConfig({}).throttles).toEqual({ signupsPerIpPerHour: 10 });
    expect(loadConfig({ SIGNUP_RATE_LIMIT_PER_IP: '50' }).throttles.signupsPerIpPerHour).toBe(50);
    for (const bad of ['0', '-1', '2.5', 'ten']) expect(() => loadConfig({ SIGNUP_RATE_LIMIT_PER_IP: bad })).toThrow(/SIGNUP_RATE_LIMIT_PER_IP/);
  });

  it('when TRUSTED_PROXIES lists addresses and CIDRs, then both listeners get them; anything else names the variable', () => {
    expect(loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, 192.0.2.7' }).trustedProxies).toEqual(['10.0.0.0/8', '192.0.2.7']);
    expect(() => loadConfig({ TRUSTED_PROXIES: 'proxy.internal' })).toThrow(/TRUSTED_PROXIES/);
  });

  it('when DNS_RESOLVERS lists host:port servers, then the domain-proof lookups use them; unset, the system’s; anything else names the variable', () => {
    expect(loadConfig({}).sso.dnsResolvers).toEqual([]);
    expect(loadConfig({ DNS_RESOLVERS: '127.0.0.1:5353, [::1]:53,192.0.2.53' }).sso.dnsResolvers).toEqual(['127.0.0.1:5353', '[::1]:53', '192.0.2.53']);
    for (const bad of ['dns.example:53', '127.0.0.1:99999', '127.0.0.1:', '[::1', 'x'.repeat(2000)])
      expect(() => loadConfig({ DNS_RESOLVERS: bad })).toThrow(/DNS_RESOLVERS/);
  });

  it('when KLAXON_SECRET is an example file’s placeholder or shorter than 32 characters, then loading stops, naming it without echoing it', () => {
    for (const secret of ['compose-development-secret-change-me-0123456789', 'please-CHANGEME-before-production-0123456789', 'short']) {
      let message = '';
      try {
        loadConfig({ KLAXON_SECRET: secret });
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toMatch(/^invalid configuration: KLAXON_SECRET: /);
      expect(message).not.toContain(secret);
    }
    expect(loadConfig({ KLAXON_SECRET: 'x9Lq2vR7tY4uI0oP3aS6dF8gH1jK5lZ' + 'c' }).secret).toHaveLength(32);
  });

  it('when PLAN_SELF_SERVE and HOST are unset, then upgrades need billing and the role picks the address', () => {
    expect(loadConfig({})).toMatchObject({ planSelfServe: false, host: undefined });
    expect(loadConfig({ PLAN_SELF_SERVE: 'true', HOST: '0.0.0.0' })).toMatchObject({ planSelfServe: true, host: '0.0.0.0' });
  });

  it('when WATCHDOG_URL is set, then the watchdog runs every WATCHDOG_INTERVAL_SECONDS (60); bad values stop loading, naming the variable without echoing the URL', () => {
    expect(loadConfig({}).watchdog).toBeUndefined();
    expect(loadConfig({ WATCHDOG_URL: 'https://hc-ping.com/secret-uuid' }).watchdog).toEqual({ url: 'https://hc-ping.com/secret-uuid', intervalSeconds: 60 });
    expect(loadConfig({ WATCHDOG_URL: 'http://127.0.0.1:9999/ping', WATCHDOG_INTERVAL_SECONDS: '3600' }).watchdog?.intervalSeconds).toBe(3600);
    const messageOf = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (err) {
        return (err as Error).message;
      }
      return 'loaded';
    };
    for (const url of ['http://hc-ping.com/secret-uuid', 'ftp://hc-ping.com/secret-uuid', 'secret-uuid', 'https://user:secret-uuid@hc-ping.com/']) {
      const message = messageOf({ WATCHDOG_URL: url });
      expect(message).toMatch(/^invalid configuration: WATCHDOG_URL: /);
      expect(message).not.toContain('secret-uuid');
    }
    // Checked whether or not WATCHDOG_URL is set: a typo is found before the watchdog is turned on.
    for (const bad of ['9', '3601', '60.5', 'a minute', '0'])
      expect(messageOf({ WATCHDOG_INTERVAL_SECONDS: bad })).toMatch(/^invalid configuration: WATCHDOG_INTERVAL_SECONDS: /);
    // Tests only: a lower floor.
    expect(
      loadConfig({ WATCHDOG_URL: 'https://hc-ping.com/x', WATCHDOG_INTERVAL_SECONDS: '2', WATCHDOG_MIN_INTERVAL_SECONDS: '1' }).watchdog?.intervalSeconds,
    ).toBe(2);
    expect(messageOf({ WATCHDOG_MIN_INTERVAL_SECONDS: '11' })).toMatch(/WATCHDOG_MIN_INTERVAL_SECONDS/);
  });

  it('when CARRIER_ROUTES and FAILOVER_AFTER_SECONDS are set, then phone pages follow them; unset, every carrier in the default order after 30 s; a bad value names the variable and the prefix', () => {
    expect(loadConfig({}).carriers).toEqual({ routes: {}, failoverAfterSeconds: 30, onReports: false });
    expect(loadConfig({ FAILOVER_ON_REPORTS: 'true' }).carriers.onReports).toBe(true);
    expect(loadConfig({ CARRIER_ROUTES: '{"+49": ["vonage", "twilio"], "+1": ["twilio"]}', FAILOVER_AFTER_SECONDS: '10' }).carriers).toEqual({
      routes: { '+49': ['vonage', 'twilio'], '+1': ['twilio'] },
      failoverAfterSeconds: 10,
      onReports: false,
    });
    const messageOf = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (err) {
        return (err as Error).message;
      }
      return 'loaded';
    };
    expect(messageOf({ CARRIER_ROUTES: '{"+49": ["vonage", "vonage"]}' })).toBe('invalid configuration: CARRIER_ROUTES: +49: must not name a carrier twice');
    expect(messageOf({ CARRIER_ROUTES: '{"49": ["vonage"]}' })).toBe(
      'invalid configuration: CARRIER_ROUTES: 49: must be an E.164 prefix: + and 1 to 15 digits',
    );
    expect(messageOf({ CARRIER_ROUTES: '{"+49": ["sinch"]}' })).toMatch(/^invalid configuration: CARRIER_ROUTES: \+49: /);
    expect(messageOf({ CARRIER_ROUTES: '{"+49": []}' })).toBe('invalid configuration: CARRIER_ROUTES: +49: must name at least one carrier');
    expect(messageOf({ CARRIER_ROUTES: 'vonage first' })).toMatch(/^invalid configuration: CARRIER_ROUTES: must be JSON/);
    expect(messageOf({ CARRIER_ROUTES: '["vonage"]' })).toMatch(/^invalid configuration: CARRIER_ROUTES: /);
    for (const bad of ['0', '3601', 'soon', '2.5'])
      expect(messageOf({ FAILOVER_AFTER_SECONDS: bad })).toMatch(/^invalid configuration: FAILOVER_AFTER_SECONDS: /);
    expect(messageOf({ FAILOVER_ON_REPORTS: 'yes' })).toMatch(/^invalid configuration: FAILOVER_ON_REPORTS: /);
  });

  it('when a variable is malformed, then the error names it', () => {
    expect(() => loadConfig({ APP_PORT: 'abc' })).toThrow(/APP_PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
  });
});

describe('paging provider configuration', () => {
  const twilio = { TWILIO_ACCOUNT_SID: 'AC' + 'f'.repeat(32), TWILIO_AUTH_TOKEN: 'secret-auth-token', TWILIO_FROM_NUMBER: '+15550001111' };

  it('when nothing is set, then the configuration keeps the environment and core values for integrations, which configure no provider but web push', () => {
    const notify = startWith({});
    expect(notify).toEqual({
      // What integrations read their own variables from (src/integrations/settings.ts).
      env: {},
      dataDir: path.resolve('.klaxon'),
      appUrl: 'http://localhost:3000',
      allowPrivateTargets: false,
      failoverOnReports: false,
    });
    expect([twilioSettings, sendgridSettings, smtpUrl, apnsSettings, fcmSettings, slackSettings].map((settings) => settings(notify))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(emailFrom(notify)).toBe('Klaxon <klaxon@localhost>');
    // Web push is always there: its VAPID keys are generated into the data folder on first use.
    expect(webPushSettings(notify)).toEqual({
      subject: 'mailto:klaxon@localhost',
      keys: undefined,
      keyFile: path.resolve('.klaxon', 'vapid-keys.json'),
      appUrl: 'http://localhost:3000',
      allowPrivate: false,
      ca: undefined,
    });
  });

  it('keeps the environment as given for integrations that read their own variables with the schema in their folder (DISCORD_API_URL, PUSHOVER_APP_TOKEN)', () => {
    const { env } = loadConfig({ DISCORD_API_URL: 'http://127.0.0.1:9/', PUSHOVER_APP_TOKEN: 'a'.repeat(30) }).notify;
    expect(env).toMatchObject({ DISCORD_API_URL: 'http://127.0.0.1:9/', PUSHOVER_APP_TOKEN: 'a'.repeat(30) });
    expect(Object.isFrozen(env)).toBe(true);
  });

  it('when a provider group is complete, then its settings carry the values and trimmed base URLs, built once per configuration', () => {
    const notify = startWith({
      ...twilio,
      TWILIO_API_BASE_URL: 'http://127.0.0.1:9000/',
      SENDGRID_API_KEY: 'SG.k',
      SENDGRID_API_BASE_URL: 'http://127.0.0.1:9001/',
      EMAIL_FROM: 'Pager <pager@example.test>',
      APP_URL: 'https://klaxon.example.test/',
      ALLOW_PRIVATE_TARGETS: 'true',
    });
    expect(twilioSettings(notify)).toEqual({
      accountSid: twilio.TWILIO_ACCOUNT_SID,
      authToken: 'secret-auth-token',
      fromNumber: '+15550001111',
      apiBaseUrl: 'http://127.0.0.1:9000',
    });
    expect(twilioSettings(notify)).toBe(twilioSettings(notify));
    expect(sendgridSettings(notify)).toEqual({ apiKey: 'SG.k', apiBaseUrl: 'http://127.0.0.1:9001' });
    expect(emailFrom(notify)).toBe('Pager <pager@example.test>');
    expect(webPushSettings(notify)).toMatchObject({ subject: 'https://klaxon.example.test', appUrl: 'https://klaxon.example.test', allowPrivate: true });
  });

  it('when a provider group is incomplete, then startup fails naming the missing variable and never echoes a secret', () => {
    expect(startupError({ TWILIO_AUTH_TOKEN: 'secret-auth-token' })).toMatch(
      /^invalid configuration: TWILIO_ACCOUNT_SID: required when TWILIO_AUTH_TOKEN is set/,
    );
    expect(startupError({ APNS_KEY: '-----BEGIN PRIVATE KEY-----x', APNS_KEY_ID: 'K' })).toMatch(/APNS_TEAM_ID: required/);
    expect(startupError({ SLACK_CLIENT_ID: 'c', SLACK_SIGNING_SECRET: 'slack-signing-secret' })).toMatch(/SLACK_CLIENT_SECRET: required/);
    const message = startupError({ ...twilio, TWILIO_FROM_NUMBER: 'not-a-number' });
    expect(message).toMatch(/^invalid configuration: TWILIO_FROM_NUMBER: must be an E\.164 number/);
    expect(message).not.toContain('secret-auth-token');
    expect(message).not.toContain('not-a-number');
    const smtp = startupError({ SMTP_URL: 'http://user:smtp-password@mail.example.test' });
    expect(smtp).toMatch(/^invalid configuration: SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/);
    expect(smtp).not.toContain('smtp-password');
    expect(startupError({ EMAIL_FROM: 'x' })).toMatch(/^invalid configuration: EMAIL_FROM: /);
    expect(startupError({ WEB_PUSH_SUBJECT: 'ops@example.test' })).toMatch(/^invalid configuration: WEB_PUSH_SUBJECT: must be a mailto: or https:\/\/ URL/);
  });

  it('when keys are given as files, then their content is read; a missing file is a clear error', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'klaxon-config-'));
    try {
      writeFileSync(path.join(dir, 'key.p8'), '-----BEGIN PRIVATE KEY-----\nk\n-----END PRIVATE KEY-----\n');
      writeFileSync(
        path.join(dir, 'sa.json'),
        JSON.stringify({ client_email: 'a@b.test', private_key: 'pk', project_id: 'proj', token_uri: 'http://127.0.0.1:1/token' }),
      );
      const notify = startWith({
        APNS_KEY: path.join(dir, 'key.p8'),
        APNS_KEY_ID: 'K',
        APNS_TEAM_ID: 'T',
        APNS_TOPIC: 'com.x',
        APNS_PORT: '8443',
        FCM_SERVICE_ACCOUNT: path.join(dir, 'sa.json'),
      });
      expect(apnsSettings(notify)).toMatchObject({ key: expect.stringContaining('BEGIN PRIVATE KEY'), port: 8443, production: false });
      expect(fcmSettings(notify)).toEqual({
        projectId: 'proj',
        serviceAccount: expect.objectContaining({ client_email: 'a@b.test' }),
        baseUrl: 'https://fcm.googleapis.com',
      });
      expect(startupError({ APNS_KEY: path.join(dir, 'missing.p8'), APNS_KEY_ID: 'K', APNS_TEAM_ID: 'T', APNS_TOPIC: 'com.x' })).toMatch(
        /APNS_KEY: is neither inline content nor a readable file/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when the FCM service account is malformed, then startup says so without quoting the key', () => {
    const broken = '{"client_email": "a@b.test", "private_key": "super-secret-key"';
    const message = startupError({ FCM_SERVICE_ACCOUNT: broken });
    expect(message).toMatch(/FCM_SERVICE_ACCOUNT: is not a service-account key/);
    expect(message).not.toMatch(/super-secret-key/);
    expect(startupError({ FCM_SERVICE_ACCOUNT: '{"client_email": "a@b.test", "private_key": "k"}' })).toMatch(
      /FCM_PROJECT_ID: required when the service account has no project_id/,
    );
  });

  it('when both SMTP_URL and SENDGRID_API_KEY are set, then SMTP sends email', () => {
    const notify = startWith({ SMTP_URL: 'smtp://127.0.0.1:2525', SENDGRID_API_KEY: 'SG.k' });
    expect(smtpUrl(notify)).toBe('smtp://127.0.0.1:2525');
    expect(channelProviders(notify).email).toBe('smtp');
  });
});
