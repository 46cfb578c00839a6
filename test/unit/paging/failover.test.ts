import { confirmationWaitMs, describeFailover, shortReason } from '../../../src/domain/paging/failover';

describe('the failover line on the timeline', () => {
  it('when Twilio reported 30003 and Vonage delivered in 2.1 s, then the line names both carriers, the code and the time', () => {
    const line = describeFailover(
      'SMS',
      'sms',
      [{ carrier: 'twilio', kind: 'failed', error: 'provider reported undelivered (30003)' }],
      { carrier: 'vonage', status: 'delivered', deliveredInMs: 2100, error: null },
      30_000,
    );
    expect(line).toBe('SMS via Twilio failed (30003) → sent via Vonage, delivered in 2.1 s');
  });

  it('when Twilio refused with HTTP 503 and Vonage took it without a report yet, then the line says refused with the status', () => {
    const line = describeFailover(
      'SMS',
      'sms',
      [{ carrier: 'twilio', kind: 'refused', error: 'twilio: SMS not accepted: HTTP 503, Twilio error 20003: Service Unavailable' }],
      { carrier: 'vonage', status: 'sent', deliveredInMs: null, error: null },
      30_000,
    );
    expect(line).toBe('SMS via Twilio refused (HTTP 503) → sent via Vonage');
  });

  it('when a call was not answered and the next carrier failed too, then the line says so for each', () => {
    const line = describeFailover(
      'Voice call',
      'voice',
      [{ carrier: 'twilio', kind: 'unconfirmed', error: null }],
      { carrier: 'vonage', status: 'failed', deliveredInMs: null, error: 'provider reported busy' },
      90_000,
    );
    expect(line).toBe('Voice call via Twilio unanswered → via Vonage failed too (busy)');
  });

  it('when the next carrier did not confirm either, then the line says how long it waited', () => {
    const line = describeFailover(
      'SMS',
      'sms',
      [{ carrier: 'vonage', kind: 'unconfirmed', error: null }],
      { carrier: 'twilio', status: 'unconfirmed', deliveredInMs: null, error: null },
      30_000,
    );
    expect(line).toBe('SMS via Vonage unconfirmed (not confirmed within 30 s) → sent via Twilio, not confirmed within 30 s');
  });

  it('when an error gives neither a code nor a status, then a short one is kept and a long one becomes its kind', () => {
    expect(shortReason('no answer', 'refused', 'sms', 1)).toBe('no answer');
    expect(shortReason('x'.repeat(200), 'refused', 'sms', 1)).toBe('refused');
  });
});

describe('how long a page waits for its carrier', () => {
  it('when the page is an SMS, then it waits FAILOVER_AFTER_SECONDS; a call gets a minute more to ring', () => {
    expect(confirmationWaitMs('sms', 30)).toBe(30_000);
    expect(confirmationWaitMs('voice', 30)).toBe(90_000);
  });
});
