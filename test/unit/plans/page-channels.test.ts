import { CHANNEL_IDS, type ChannelId } from '../../../src/domain/channels';
import { planRestrictsChannel, quotaFallbackReason } from '../../../src/domain/paging/quota';
import { PLANS, type Plan } from '../../../src/domain/plans';

describe('where a page goes, by plan', () => {
  // [plan, channel, pages of the person on it this month, the reason it goes by email (null: as asked)]
  const cases: Array<[Plan, ChannelId, number, RegExp | null]> = [
    ['FREE', 'email', 10_000, null],
    ['FREE', 'push_ios', 0, /^the FREE plan pages by email only; sent by email instead$/],
    ['FREE', 'push_android', 0, /^the FREE plan pages by email only; sent by email instead$/],
    ['FREE', 'sms', 0, /^the FREE plan pages by email only/],
    ['FREE', 'voice', 0, /^the FREE plan pages by email only/],
    ['STARTER', 'push_ios', 10_000, null],
    ['STARTER', 'push_android', 10_000, null],
    ['STARTER', 'sms', 99, null],
    ['STARTER', 'sms', 100, /^SMS quota of the STARTER plan reached \(100 per user per month\)/],
    ['STARTER', 'voice', 0, /^the STARTER plan includes no voice call pages/],
    ['PRO', 'push_ios', 10_000, null],
    ['PRO', 'sms', 299, null],
    ['PRO', 'sms', 300, /SMS quota of the PRO plan reached/],
    ['PRO', 'voice', 99, null],
    ['PRO', 'voice', 100, /voice call quota of the PRO plan reached \(100 per user per month\)/],
    ['BUSINESS', 'sms', 999, null],
    ['BUSINESS', 'voice', 300, /voice call quota of the BUSINESS plan reached/],
  ];

  it.each(cases)('when a %s workspace pages on %s with %i pages used this month, then the fallback reason is %p', (plan, channel, used, reason) => {
    const got = quotaFallbackReason(plan, channel, used);
    if (reason === null) expect(got).toBeNull();
    else expect(got).toMatch(reason);
  });

  it('when the plan pages by email only (FREE), then every channel but email is decided by the plan, push included', () => {
    expect(CHANNEL_IDS.filter((c) => planRestrictsChannel('FREE', c))).toEqual(CHANNEL_IDS.filter((c) => c !== 'email'));
  });

  it('when the plan allows push (STARTER and up), then only quota channels (SMS, voice) are decided by the plan', () => {
    for (const plan of PLANS.filter((p) => p !== 'FREE')) {
      expect(CHANNEL_IDS.filter((c) => planRestrictsChannel(plan, c))).toEqual(['sms', 'voice']);
    }
  });
});
