import {
  CRON_PATTERN,
  drillLatencyMs,
  drillQuotaRefusal,
  planDrill,
  skipRecentlyDrilled,
  weeklyCron,
  withinAckWindow,
  type DrillPerson,
} from '../../../src/domain/drills';
import { drillSmsText } from '../../../src/integrations/twilio/messages';
import { readinessGaps } from '../../../src/domain/paging/readiness';

const person = (over: Partial<DrillPerson> = {}): DrillPerson => ({
  userId: 'u1',
  name: 'Ada',
  ruled: [
    { contactMethodId: 'c-sms', channel: 'sms', address: '+15550100001' },
    { contactMethodId: 'c-mail', channel: 'email', address: 'ada@example.test' },
    { contactMethodId: 'c-sms', channel: 'sms', address: '+15550100001' },
  ],
  contacts: [
    { id: 'c-sms', type: 'sms', address: '+15550100001' },
    { id: 'c-mail', type: 'email', address: 'ada@example.test' },
    { id: 'c-call', type: 'voice', address: '+15550100001' },
  ],
  ...over,
});
const brief = (r: ReturnType<typeof planDrill>) => r.map((x) => [x.contactMethodId, x.status, x.error]);

describe('planDrill', () => {
  it('when no channels are given, then each contact method the rules page is drilled once', () => {
    expect(brief(planDrill([person()], undefined, 'PRO'))).toEqual([
      ['c-sms', 'pending', null],
      ['c-mail', 'pending', null],
    ]);
  });

  it('when channels are given, then every usable contact method on them is drilled, ruled or not', () => {
    expect(brief(planDrill([person()], ['voice'], 'PRO'))).toEqual([['c-call', 'pending', null]]);
  });

  it('when a person has nothing to send on, then one failed result says why', () => {
    expect(planDrill([person({ ruled: [] })], undefined, 'PRO')).toEqual([
      expect.objectContaining({
        userId: 'u1',
        channel: null,
        status: 'failed',
        error: 'no notification rule pages them on an enabled, verified contact method',
      }),
    ]);
    expect(planDrill([person()], ['push_ios', 'push_web'], 'PRO')[0].error).toBe('no enabled, verified contact method on iOS push, Web push');
  });

  it('when the plan does not include a channel, then that result fails saying a real page would go by email', () => {
    const [sms, mail] = planDrill([person()], undefined, 'FREE');
    expect(sms).toMatchObject({ status: 'failed', error: 'not sent: the FREE plan pages by email only; a real page would go by email' });
    expect(mail).toMatchObject({ status: 'pending' });
    expect(planDrill([person()], ['voice'], 'STARTER')[0].error).toBe('not sent: the STARTER plan includes no voice call pages; a real page would go by email');
  });

  it('when a rule pages Slack, then the drill says it does not send Slack messages', () => {
    const slack = person({ ruled: [{ contactMethodId: 'c-slack', channel: 'slack', address: 'U123' }] });
    expect(planDrill([slack], undefined, 'PRO')[0]).toMatchObject({ status: 'failed', error: 'drills do not send Slack messages' });
  });
});

describe('skipRecentlyDrilled and drillQuotaRefusal', () => {
  const at = new Date('2026-12-14T09:30:00Z');

  it('when the person was drilled on SMS within the hour, then only their SMS is skipped, naming the drill and when', () => {
    const planned = planDrill([person()], undefined, 'PRO');
    const skipped = skipRecentlyDrilled(planned, [
      { userId: 'u1', channel: 'sms', drillId: 'd-old', at: new Date('2026-12-14T09:00:00Z') },
      { userId: 'u1', channel: 'sms', drillId: 'd-new', at },
      { userId: 'u2', channel: 'email', drillId: 'd-other', at },
    ]);
    expect(brief(skipped)).toEqual([
      [
        'c-sms',
        'skipped',
        'skipped: drilled on SMS at 2026-12-14T09:30:00.000Z (drill d-new); a recurring drill sends a person at most one page an hour per channel',
      ],
      ['c-mail', 'pending', null],
    ]);
  });

  it('when a result already failed before sending, then it stays failed, not skipped', () => {
    const planned = planDrill([person()], ['voice'], 'STARTER');
    expect(skipRecentlyDrilled(planned, [{ userId: 'u1', channel: 'voice', drillId: 'd', at }])).toEqual(planned);
  });

  it('counts drill sends like pages: under the quota nothing is said; at it, a real page would go by email', () => {
    expect(drillQuotaRefusal('PRO', 'sms', 299)).toBeNull();
    expect(drillQuotaRefusal('PRO', 'sms', 300)).toBe('not sent: SMS quota of the PRO plan reached (300 per user per month); a real page would go by email');
    expect(drillQuotaRefusal('BUSINESS', 'voice', 300)).toMatch(/^not sent: voice call quota of the BUSINESS plan reached/);
    expect(drillQuotaRefusal('PRO', 'email', 10_000)).toBeNull();
  });
});

describe('drill messages and rules', () => {
  it('marks the SMS as a test with its reply code, within one segment', () => {
    expect(drillSmsText(42)).toBe('[TEST] Klaxon paging drill: no incident. Reply 42A to acknowledge.');
    expect(drillSmsText(99).length).toBeLessThanOrEqual(160);
  });

  it('measures latency from the drill start and closes the acknowledgement window', () => {
    const start = new Date('2026-03-02T09:00:00Z');
    expect(drillLatencyMs(start, new Date('2026-03-02T09:00:01.250Z'))).toBe(1250);
    expect(withinAckWindow(start, 600, new Date('2026-03-02T09:10:00Z'))).toBe(true);
    expect(withinAckWindow(start, 600, new Date('2026-03-02T09:10:00.001Z'))).toBe(false);
  });

  it('turns a weekday and time into cron, and takes only at-most-hourly cron', () => {
    expect(weeklyCron('monday', '10:00')).toBe('0 10 * * 1');
    expect(weeklyCron('sunday', '07:30')).toBe('30 7 * * 0');
    expect(CRON_PATTERN.test('0 10 * * 1')).toBe(true);
    expect(CRON_PATTERN.test('15 */2 * * 1-5')).toBe(true);
    expect(CRON_PATTERN.test('* * * * *')).toBe(false);
    expect(CRON_PATTERN.test('0 10 * *')).toBe(false);
  });
});

describe('readiness after drills', () => {
  it('when an on-call person failed their last drill, then their shift is a failed_in_drill gap; no working contact still comes first', () => {
    const span = { start: 0, end: 3_600_000, userIds: ['ada', 'bob'] };
    const gaps = readinessGaps({
      from: 0,
      to: 3_600_000,
      schedules: [{ id: 's1', name: 'Nights', spans: [span] }],
      policies: [],
      reach: new Map([
        ['ada', 0],
        ['bob', null],
      ]),
      names: new Map([['ada', 'Ada']]),
      drillFailures: new Map([
        ['ada', 'sms: refused'],
        ['bob', 'sms: refused'],
      ]),
    });
    expect(gaps.map((g) => [g.kind, g.user_id, g.detail])).toEqual([
      ['failed_in_drill', 'ada', 'Ada is on call on "Nights" and was not reached by their last paging drill (sms: refused)'],
      ['no_working_contact', 'bob', 'bob is on call on "Nights" and has no verified, working contact method'],
    ]);
  });
});
