import type { EscalationPlan, PageJob } from '../../../src/domain/paging/escalation-plan';
import { isNight, replaySpell } from '../../../src/domain/paging/what-if';

// docs/what-if.md: the replay steps through the workflow's own escalation functions.
const plan = (stepDelays: number[], repeat = 0): EscalationPlan => ({ kind: 'policy', stepDelays, repeat, ackTimeoutSeconds: null });
const job = (userId: string, channel: PageJob['channel'], delaySeconds = 0): PageJob => ({
  userId,
  contactMethodId: `${userId}-${channel}`,
  channel,
  address: 'x',
  delaySeconds,
});
const T0 = Date.UTC(2026, 10, 2, 9, 0, 0);

describe('replaySpell', () => {
  it('when nobody acknowledges, then every step and repeat pages at the policy delays, and each rule at its own delay after its step', () => {
    const jobsAt = (step: number) => (step === 0 ? [job('a', 'sms'), job('a', 'voice', 120)] : [job('b', 'sms')]);

    const pages = replaySpell(plan([300, 600], 1), { openedAtMs: T0, endedAtMs: null, untilMs: T0 + 86_400_000 }, jobsAt);

    expect(pages.map((p) => [p.userId, p.channel, p.step, (p.atMs - T0) / 1000])).toEqual([
      ['a', 'sms', 0, 0],
      ['a', 'voice', 0, 120],
      ['b', 'sms', 1, 300],
      ['a', 'sms', 0, 900],
      ['a', 'voice', 0, 1020],
      ['b', 'sms', 1, 1200],
    ]);
  });

  it('when the spell ends, then nothing due at or after its end is paged, and later steps are not resolved at all', () => {
    const asked: number[] = [];
    const jobsAt = (step: number) => {
      asked.push(step);
      return step === 0 ? [job('a', 'sms'), job('a', 'voice', 120)] : [job('b', 'sms')];
    };

    const pages = replaySpell(plan([300, 600]), { openedAtMs: T0, endedAtMs: T0 + 120_000, untilMs: T0 + 86_400_000 }, jobsAt);

    expect(pages.map((p) => [p.userId, p.channel])).toEqual([['a', 'sms']]);
    expect(asked).toEqual([0]);
  });

  it('when a step is resolved, then it is asked at the instant the workflow would page it', () => {
    const asked: Array<[number, number]> = [];
    replaySpell(plan([60, 60]), { openedAtMs: T0, endedAtMs: null, untilMs: T0 + 3_600_000 }, (step, at) => {
      asked.push([step, (at - T0) / 1000]);
      return [];
    });

    expect(asked).toEqual([
      [0, 0],
      [1, 60],
    ]);
  });

  it('when the spell is still TRIGGERED, then the replay stops at untilMs', () => {
    const pages = replaySpell(plan([600]), { openedAtMs: T0, endedAtMs: null, untilMs: T0 + 60_000 }, () => [job('a', 'sms'), job('a', 'voice', 300)]);

    expect(pages.map((p) => p.channel)).toEqual(['sms']);
  });
});

describe('isNight', () => {
  it('when it is 22:00 to 06:59 on the person’s clock, then it is night; 07:00 to 21:59 is not', () => {
    expect(isNight(Date.UTC(2026, 0, 1, 22, 0), 'UTC')).toBe(true);
    expect(isNight(Date.UTC(2026, 0, 1, 6, 59), 'UTC')).toBe(true);
    expect(isNight(Date.UTC(2026, 0, 1, 7, 0), 'UTC')).toBe(false);
    // 12:00 UTC is 21:00 in Tokyo (not night) and 23:00 in Sydney in January (night).
    expect(isNight(Date.UTC(2026, 0, 1, 12, 0), 'Asia/Tokyo')).toBe(false);
    expect(isNight(Date.UTC(2026, 0, 1, 12, 0), 'Australia/Sydney')).toBe(true);
  });
});
