import { describePage, pageEntryData, type PageOutcome } from '../../../src/domain/paging/page-outcome';

const sent: PageOutcome = { status: 'sent', channel: 'sms', target: '+14155550100', error: null, fallbackReason: null, provider: 'twilio' };

describe('page outcomes on the timeline', () => {
  it('when a page went after an attempt whose outcome was unknown, then its line and data say it may have gone twice', () => {
    const retried = { ...sent, unknownOutcomeRetries: 1 };
    expect(describePage(retried, 'ann@x.test')).toBe(
      "SMS to ann@x.test (+14155550100) sent; retried: the previous attempt's outcome is unknown, so this may have been sent twice",
    );
    expect(pageEntryData(retried, 'u1')).toMatchObject({ kind: 'page', status: 'sent', channel: 'sms', user_id: 'u1', unknown_outcome_retry: true });
  });

  it('when a page went on its first attempt, or after a known refusal, then nothing is marked', () => {
    expect(describePage({ ...sent, unknownOutcomeRetries: 0 }, null)).toBe('SMS to +14155550100 sent');
    expect(pageEntryData(sent, null).unknown_outcome_retry).toBe(false);
  });

  it('when a skipped or failed page had an unknown attempt, then the mark follows its reason', () => {
    expect(describePage({ ...sent, status: 'skipped', error: 'incident is ACKNOWLEDGED', unknownOutcomeRetries: 2 }, null)).toBe(
      "SMS to +14155550100 not sent: incident is ACKNOWLEDGED; retried: the previous attempt's outcome is unknown, so this may have been sent twice",
    );
  });
});
