import { regexes } from 'zod';
import { CHANNEL_IDS, CHANNELS, DEV_INBOX, EMAIL_PATTERN, isChannelId, normaliseAddress } from '../../src/domain/channels';
import { formBChannels, parseSourceChannels } from '../../src/domain/paging/form-b-channels';
import { describePage } from '../../src/domain/paging/page-outcome';
import { PLAN_LIMITS, PLANS } from '../../src/domain/plans';
import { SEVERITIES } from '../../src/domain/severity';

const failure = (r: { ok: boolean; message?: string }) => (r.ok ? 'accepted' : r.message);

describe('channel registry', () => {
  it("when the registry is listed, then it holds each channel once, the first integrations' in the order people see them", () => {
    expect(CHANNEL_IDS.slice(0, 7)).toEqual(['sms', 'voice', 'email', 'push_ios', 'push_android', 'push_web', 'slack']);
    expect(new Set(CHANNEL_IDS).size).toBe(CHANNEL_IDS.length);
  });

  it('when a Slack address is checked, then only a Slack member id (U…, W…) passes, and the message never repeats it', () => {
    expect(normaliseAddress('slack', ' U0ABC12345 ')).toEqual({ ok: true, address: 'U0ABC12345' });
    expect(normaliseAddress('slack', 'W0ENTERPRISE1')).toEqual({ ok: true, address: 'W0ENTERPRISE1' });
    for (const bad of ['u0abc123', '<@U0ABC123>', 'C0ALERTS01', 'U1', `U${'A'.repeat(31)}`, 'ada@example.test']) {
      const result = normaliseAddress('slack', bad);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.message).not.toContain(bad);
    }
  });

  it.each(CHANNEL_IDS)('when %s is read, then it has labels, a provider, the credentials that enable it and a known quota', (id) => {
    const spec = CHANNELS[id];
    expect(spec.label).toMatch(/^\S/);
    // The banner pads "Paging <label>" to 17 columns: a longer label would run into the provider.
    expect(`Paging ${spec.bannerLabel}`.length).toBeLessThan(17);
    expect(spec.providers.length).toBeGreaterThan(0);
    expect(spec.credentials).toMatch(/^[A-Z][A-Z_]+/);
    for (const plan of PLANS) if (spec.quota) expect(PLAN_LIMITS[plan][spec.quota.limit]).toEqual(expect.any(Number));
  });

  it('when a page is described, then the timeline uses the registry label and says where the dev inbox kept it', () => {
    const outcome = { status: 'sent' as const, target: '+14155550100', error: null, fallbackReason: null };
    expect(CHANNEL_IDS.map((channel) => describePage({ ...outcome, channel, provider: 'twilio' }, null))).toEqual([
      'SMS to +14155550100 sent',
      'Voice call to +14155550100 sent',
      'Email to +14155550100 sent',
      'iOS push to +14155550100 sent',
      'Android push to +14155550100 sent',
      // A web push subscription is never shown: it holds keys and a capability URL.
      'Web push to browser sent',
      'Slack to +14155550100 sent',
      'Pushover to +14155550100 sent',
    ]);
    expect(describePage({ ...outcome, channel: 'sms', provider: DEV_INBOX }, 'ann@example.test')).toBe(
      'SMS to ann@example.test (+14155550100) stored in the dev inbox',
    );
    expect(describePage({ ...outcome, channel: 'pager' }, null)).toBe('pager to +14155550100 sent');
  });

  it('when a string is not a channel id, then isChannelId says so, inherited object keys included', () => {
    expect(['sms', 'push_android'].map(isChannelId)).toEqual([true, true]);
    expect(['SMS', 'push', 'constructor', 'toString', ''].map(isChannelId)).toEqual([false, false, false, false, false]);
  });
});

describe('channel addresses', () => {
  it("when the email pattern is compared with zod, then it is zod's own", () => {
    expect(EMAIL_PATTERN.source).toBe(regexes.email.source);
  });

  it.each([
    ['sms', '+14155550100', '+14155550100'],
    ['voice', ' +44 (20) 7946-0958 ', '+442079460958'],
    ['sms', '+12345678', '+12345678'],
    ['voice', '+123456789012345', '+123456789012345'],
    ['email', ' On-Call@Example.COM ', 'on-call@example.com'],
    ['push_ios', 'A'.repeat(64), 'a'.repeat(64)],
    ['push_ios', 'not-hex-Token', 'not-hex-Token'],
    ['push_android', 'fcm:APA91b-xyz_123', 'fcm:APA91b-xyz_123'],
    ['push_android', 'ABCDEF', 'ABCDEF'],
    ['push_android', 'x'.repeat(4096), 'x'.repeat(4096)],
  ] as const)('when a %s address is %j, then it is stored as %j', (type, raw, stored) => {
    expect(normaliseAddress(type, raw)).toEqual({ ok: true, address: stored });
  });

  it.each([
    ['sms', '4155550100', /^must be a phone number in E\.164 form for sms: \+ and 8 to 15 digits/],
    ['sms', '+1234567', /8 to 15 digits/],
    ['voice', '+1234567890123456', /E\.164 form for voice/],
    ['voice', '+0123456789', /E\.164/],
    ['sms', '+1415555abcd', /E\.164/],
    ['email', 'not-an-email', /^must be an email address for email$/],
    ['email', '', /email address/],
    ['push_ios', '', /^must be a device token for push_ios: 1 to 4096 visible characters, no spaces$/],
    ['push_ios', 'abc def', /no spaces/],
    ['push_android', 'x'.repeat(4097), /for push_android: 1 to 4096/],
  ] as const)('when a %s address is %j, then it is refused', (type, raw, message) => {
    const r = normaliseAddress(type, raw);
    expect(r.ok).toBe(false);
    expect(failure(r)).toMatch(message);
  });

  it('when a device token is refused, then the message does not repeat it', () => {
    for (const type of ['push_ios', 'push_android'] as const) expect(failure(normaliseAddress(type, 'secret-token with-space'))).not.toContain('secret-token');
  });
});

describe('Form B names', () => {
  it('when a source lists names and aliases in any case, then they come out as Form B names, once each', () => {
    expect(parseSourceChannels(['SMS', 'call', 'Voice', 'email', 'PUSH_NOTIF', 'push'])).toEqual({ ok: true, channels: ['sms', 'voice', 'email', 'push'] });
  });

  it('when a source lists an unknown name or none, then the message says which names work', () => {
    expect(parseSourceChannels(['sms', 'pager', 'push_ios'])).toEqual({
      ok: false,
      message: 'unknown channel "pager", "push_ios"; use sms, voice, email or push',
    });
    expect(parseSourceChannels(['constructor'])).toEqual({ ok: false, message: 'unknown channel "constructor"; use sms, voice, email or push' });
    expect(parseSourceChannels([])).toEqual({ ok: false, message: 'at least one channel is required' });
  });

  it("when a source lists every channel, then each severity pages the spec's defaults, and push always", () => {
    const all = ['sms', 'voice', 'email', 'push'];
    expect(Object.fromEntries(SEVERITIES.map((s) => [s, formBChannels(s, all)]))).toEqual({
      CRITICAL: ['sms', 'voice', 'email', 'push_ios', 'push_android', 'push_web'],
      HIGH: ['sms', 'email', 'push_ios', 'push_android', 'push_web'],
      MEDIUM: ['sms', 'email', 'push_ios', 'push_android', 'push_web'],
      LOW: ['email', 'push_ios', 'push_android', 'push_web'],
      INFO: ['email', 'push_ios', 'push_android', 'push_web'],
    });
  });
});
