import {
  channelIdsOf,
  memberTargetChannels,
  parseTargetChannels,
  targetChannelsView,
  testMessage,
  testRoute,
} from '../../../src/domain/inbound-webhook-targets';

const MEMBER = '3f2b8c1e-9d4a-4c7b-8e1f-2a3b4c5d6e7f';

describe('a webhook’s targetChannels', () => {
  it('when keys are the dashboard’s channels and their aliases, then each is stored by its Form B name, addresses normalised', () => {
    const parsed = parseTargetChannels({ sms: '+1 (415) 555-0100', call: MEMBER.toUpperCase(), email: 'Ops@Example.test', push_notif: MEMBER }, [
      'sms',
      'voice',
      'email',
      'push',
    ]);
    expect(parsed).toEqual({
      ok: true,
      targets: { sms: { address: '+14155550100' }, voice: { user_id: MEMBER }, email: { address: 'ops@example.test' }, push: { user_id: MEMBER } },
      memberIds: [MEMBER, MEMBER],
      keys: { sms: 'sms', call: 'voice', email: 'email', push_notif: 'push' },
    });
    expect(parseTargetChannels({ voice: '+14155550100', push: MEMBER }, ['voice', 'push'])).toMatchObject({
      ok: true,
      targets: { voice: { address: '+14155550100' }, push: { user_id: MEMBER } },
    });
  });

  it.each([
    [{ fax: '+14155550100' }, ['sms'], 'targetChannels.fax', /unknown channel; use sms, call, email, push_notif/],
    [{ sms: '+14155550100' }, ['email'], 'targetChannels.sms', /not one of this webhook's notificationTypes/],
    [{ sms: 'call me' }, ['sms'], 'targetChannels.sms', /E\.164/],
    [{ call: '12345' }, ['voice'], 'targetChannels.call', /E\.164 form for voice/],
    [{ email: 'nobody' }, ['email'], 'targetChannels.email', /must be an email address/],
    [{ push_notif: 'some-device-token' }, ['push'], 'targetChannels.push_notif', /user id of a member/],
    [{ push: MEMBER, push_notif: MEMBER }, ['push'], 'targetChannels.push_notif', /same channel as another key/],
  ])('when targets are %j for channels %j, then the error names %s and never repeats the value', (raw, channels, field, message) => {
    const parsed = parseTargetChannels(raw as Record<string, string>, channels);
    expect(parsed).toEqual({ ok: false, field, message: expect.stringMatching(message) });
    if (!parsed.ok) for (const value of Object.values(raw)) expect(parsed.message).not.toContain(value);
  });

  it('when shown, then keys are the dashboard’s (call, push_notif) and values the address or user id', () => {
    expect(targetChannelsView({ voice: { address: '+14155550100' }, push: { user_id: MEMBER }, sms: { address: '+14155550101' } })).toEqual({
      call: '+14155550100',
      push_notif: MEMBER,
      sms: '+14155550101',
    });
    expect(targetChannelsView(null)).toEqual({});
  });

  it('when push is asked for, then either platform may carry it', () => {
    expect(channelIdsOf('push')).toEqual(['push_ios', 'push_android']);
    expect(channelIdsOf('voice')).toEqual(['voice']);
  });
});

describe('a test notification’s route', () => {
  it.each([
    ['FREE', 'sms', 'email', /FREE plan pages by email only/],
    ['FREE', 'push_ios', 'email', /FREE plan pages by email only/],
    ['FREE', 'email', 'email', null],
    ['STARTER', 'voice', 'email', /STARTER plan includes no voice call pages/],
    ['STARTER', 'sms', 'sms', null],
    ['PRO', 'voice', 'voice', null],
    ['BUSINESS', 'push_android', 'push_android', null],
  ] as const)('when a %s workspace tests %s, then it goes on %s', (plan, channel, goes, reason) => {
    const route = testRoute(plan, channel);
    expect(route.channel).toBe(goes);
    if (reason) expect(route.fallbackReason).toMatch(reason);
    else expect(route.fallbackReason).toBeNull();
  });

  it('when rendered, then it says it is a test, escapes the name in HTML and TwiML, and the call needs no keypress', () => {
    const m = testMessage('<db> & "prod"');
    expect(m.text).toContain('This is a test');
    expect(m.html).not.toContain('<db>');
    expect(m.voiceTwiml).not.toContain('<db>');
    expect(m.voiceTwiml).not.toContain('<Gather');
  });
});

describe('paging a webhook’s member targets', () => {
  const OTHER = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
  it('when channels target members, then each member takes their channels (push on both platforms); address targets take none', () => {
    const targets = { email: { user_id: MEMBER }, push: { user_id: MEMBER }, voice: { user_id: OTHER }, sms: { address: '+14155550100' } };
    expect(memberTargetChannels(targets, ['sms', 'voice', 'email', 'push_ios', 'push_android'])).toEqual(
      new Map([
        [OTHER, ['voice']],
        [MEMBER, ['email', 'push_ios', 'push_android']],
      ]),
    );
  });

  it('when the incident’s severity pages fewer channels, or there are no targets, then only those are taken', () => {
    expect(memberTargetChannels({ voice: { user_id: OTHER }, email: { user_id: MEMBER } }, ['email'])).toEqual(new Map([[MEMBER, ['email']]]));
    expect(memberTargetChannels(null, ['sms', 'email']).size).toBe(0);
  });
});
