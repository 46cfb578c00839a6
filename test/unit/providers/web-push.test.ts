import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../../src/config';
import { displayAddress, normaliseAddress } from '../../../src/domain/channels';
import { prepareIntegrations } from '../../../src/integrations/wiring';
import { defaultSubject, endpointHost, pagePayload, parseSubscription, vapidKeys, webPushSettings, webPushTopic } from '../../../src/integrations/web-push';

const P256DH = 'B' + 'x'.repeat(86); // 65 bytes: 87 base64url characters
const AUTH = 'a'.repeat(22); // 16 bytes
const ENDPOINT = 'https://fcm.googleapis.com/fcm/send/cap-abc123';
const sub = (over: Record<string, unknown> = {}, keys: Record<string, unknown> = {}) =>
  JSON.stringify({ endpoint: ENDPOINT, keys: { p256dh: P256DH, auth: AUTH, ...keys }, ...over });
const message = (r: ReturnType<typeof normaliseAddress>) => (r.ok ? 'accepted' : r.message);

describe('push_web subscriptions', () => {
  it('when a browser subscription is given, then only endpoint, p256dh and auth are kept, in that order, padding dropped', () => {
    const r = normaliseAddress('push_web', `  ${sub({ expirationTime: null, extra: 'x' }, { auth: `${AUTH}==` })}  `);
    expect(r).toEqual({ ok: true, address: `{"endpoint":"${ENDPOINT}","keys":{"p256dh":"${P256DH}","auth":"${AUTH}"}}` });
    expect(parseSubscription((r as { address: string }).address)).toEqual({ endpoint: ENDPOINT, keys: { p256dh: P256DH, auth: AUTH } });
  });

  it.each([
    ['not JSON', '{endpoint', /not JSON/],
    ['null', 'null', /endpoint must be an https:\/\/ URL/],
    ['an http endpoint', sub({ endpoint: 'http://push.example.test/x' }), /endpoint must be an https:\/\/ URL/],
    ['an endpoint with no host', sub({ endpoint: 'https:///x' }), /endpoint must be an https:\/\/ URL/],
    ['an endpoint over 2048 characters', sub({ endpoint: `https://push.example.test/${'x'.repeat(2030)}` }), /at most 2048/],
    ['no keys', JSON.stringify({ endpoint: ENDPOINT }), /keys\.p256dh/],
    ['a short p256dh', sub({}, { p256dh: 'B'.repeat(79) }), /keys\.p256dh must be 80 to 100/],
    ['a long p256dh', sub({}, { p256dh: 'B'.repeat(101) }), /keys\.p256dh/],
    ['p256dh in standard base64', sub({}, { p256dh: `${'B'.repeat(85)}+/` }), /keys\.p256dh/],
    ['a short auth', sub({}, { auth: 'a'.repeat(15) }), /keys\.auth must be 16 to 32/],
    ['a long auth', sub({}, { auth: 'a'.repeat(33) }), /keys\.auth/],
  ])('when it is %s, then it is refused, saying what a subscription is', (_what, value, why) => {
    const m = message(normaliseAddress('push_web', value));
    expect(m).toMatch(/^must be a browser push subscription for push_web/);
    expect(m).toMatch(why);
  });

  it('when a refusal is explained, then it never repeats the keys or the endpoint', () => {
    for (const value of [sub({}, { auth: `${AUTH}!` }), sub({}, { p256dh: `${P256DH}!` }), sub({ endpoint: `http://x.test/${AUTH}` })]) {
      const m = message(normaliseAddress('push_web', value));
      expect(m).not.toContain(AUTH);
      expect(m).not.toContain(P256DH);
      expect(m).not.toContain('cap-abc123');
    }
  });

  it('when a push_web address is shown, then only its push service host is, and other channels show the address', () => {
    expect(displayAddress('push_web', sub())).toBe('browser via fcm.googleapis.com');
    expect(displayAddress('push_web', 'garbage')).toBe('browser');
    expect(displayAddress('sms', '+14155550100')).toBe('+14155550100');
    expect(endpointHost(ENDPOINT)).toBe('fcm.googleapis.com');
  });
});

describe('web push topic and payload', () => {
  it('when an incident id is a UUID, then the topic is its 32 hex digits (RFC 8030: at most 32 URL-safe base64 characters)', () => {
    const topic = webPushTopic('7C9E6679-7425-40DE-944B-E07FC1F90AE7');
    expect(topic).toBe('7c9e6679742540de944be07fc1f90ae7');
    expect(topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
    expect(webPushTopic('inc-1')).toBeUndefined();
    expect(webPushTopic(null)).toBeUndefined();
  });

  it('when a page is rendered for a browser, then the payload carries the incident, its URL and the acknowledge token only', () => {
    const payload = pagePayload(
      {
        notificationId: 'n',
        channel: 'push_web',
        to: sub(),
        subject: '#3 Disk full',
        text: 'HIGH incident #3',
        push: { category: 'KLAXON_INCIDENT', data: { incident_id: 'i-3', acknowledge_token: 'ack', resolve_token: 'res' } },
      },
      'https://klaxon.example.test',
    );
    expect(payload).toEqual({
      incident_id: 'i-3',
      title: '#3 Disk full',
      body: 'HIGH incident #3',
      url: 'https://klaxon.example.test/incidents/i-3',
      action_token: 'ack',
    });
  });

  it('when no subject is configured, then an https app URL is the subject, else mailto: the EMAIL_FROM mailbox', () => {
    expect(defaultSubject('https://klaxon.example.com', 'Klaxon <pager@example.com>')).toBe('https://klaxon.example.com');
    expect(defaultSubject('http://localhost:3000', 'Klaxon <pager@example.com>')).toBe('mailto:pager@example.com');
    expect(defaultSubject('http://localhost:3000', 'pager@example.com')).toBe('mailto:pager@example.com');
  });
});

describe('a cluster readying its data folder (ProviderModule prepare)', () => {
  it('when no VAPID keys are configured, then the pair is made in the folder given, once (0600); when they are, nothing is written', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'klaxon-prepare-'));
    const clusterDir = path.join(dataDir, 'cluster');
    try {
      const notify = loadConfig({ KLAXON_DATA_DIR: dataDir }).notify;
      prepareIntegrations(notify, clusterDir);
      const file = path.join(clusterDir, 'vapid-keys.json');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const made = readFileSync(file, 'utf8');
      prepareIntegrations(notify, clusterDir);
      expect(readFileSync(file, 'utf8')).toBe(made);
      // The roles read the cluster's folder (KLAXON_DATA_DIR): the keys they find are the ones made.
      expect(vapidKeys(webPushSettings(loadConfig({ KLAXON_DATA_DIR: clusterDir }).notify)).publicKey).toBe(JSON.parse(made).public_key);
      expect(existsSync(path.join(dataDir, 'vapid-keys.json'))).toBe(false);

      const given = JSON.parse(made) as { public_key: string; private_key: string };
      const other = path.join(dataDir, 'other');
      prepareIntegrations(loadConfig({ WEB_PUSH_VAPID_PUBLIC_KEY: given.public_key, WEB_PUSH_VAPID_PRIVATE_KEY: given.private_key }).notify, other);
      expect(existsSync(other)).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
