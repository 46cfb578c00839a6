import { emailBody } from '../../../src/domain/paging/messages';
import { formBChannels } from '../../../src/domain/paging/form-b-channels';
import { monthStart, quotaFallbackReason } from '../../../src/domain/paging/quota';
import { signAction, verifyAction } from '../../../src/services/response/action-tokens';

const subject = {
  number: 42,
  title: 'Database <primary> down & "out"',
  severity: 'CRITICAL' as const,
  serviceName: 'API',
  url: 'https://klaxon.test/incidents/x',
};

describe('page messages', () => {
  it('when an email is rendered, then both bodies link to acknowledge and resolve', () => {
    const body = emailBody(subject, { acknowledge: 'https://a/ack', resolve: 'https://a/res' });
    expect(body.text).toContain('Acknowledge: https://a/ack');
    expect(body.html).toContain('href="https://a/res"');
    expect(body.html).not.toContain('<primary>');
  });
});

describe('Form B channels', () => {
  it('when a source lists channels, then the severity default table cuts them', () => {
    expect(formBChannels('CRITICAL', ['sms', 'email', 'voice'])).toEqual(['sms', 'voice', 'email']);
    expect(formBChannels('MEDIUM', ['SMS', 'email', 'voice'])).toEqual(['sms', 'email']);
    expect(formBChannels('INFO', ['sms', 'email'])).toEqual(['email']);
    expect(formBChannels('INFO', ['sms'])).toEqual([]);
    expect(formBChannels('LOW', ['push'])).toEqual(['push_ios', 'push_android', 'push_web']);
  });
});

describe('plan quotas', () => {
  it("when a user is under the plan's SMS quota, then SMS goes; at the quota, it falls back to email with the reason", () => {
    expect(quotaFallbackReason('STARTER', 'sms', 99)).toBeNull();
    expect(quotaFallbackReason('STARTER', 'sms', 100)).toMatch(/SMS quota of the STARTER plan reached \(100 per user per month\)/);
    expect(quotaFallbackReason('STARTER', 'voice', 0)).toMatch(/STARTER plan includes no voice call pages/);
    expect(quotaFallbackReason('FREE', 'email', 10_000)).toBeNull();
  });

  it('when the month is computed, then it starts at UTC midnight on the 1st', () => {
    expect(monthStart(new Date('2026-03-31T23:59:59Z')).toISOString()).toBe('2026-03-01T00:00:00.000Z');
  });
});

describe('signed page actions', () => {
  const secret = 'a'.repeat(40);
  const claim = { notificationId: 'n1', action: 'acknowledge' as const, expiresAt: 2_000 };

  it('when a token is signed, then it verifies until it expires', () => {
    const token = signAction(secret, claim);
    expect(verifyAction(secret, token, 1_999)).toEqual(claim);
    expect(verifyAction(secret, token, 2_001)).toBeNull();
  });

  it('when a token is altered or signed with another key, then it is refused', () => {
    const token = signAction(secret, claim);
    const [body, sig] = token.split('.');
    const forgedBody = Buffer.from(JSON.stringify({ n: 'n1', a: 'resolve', e: 2_000 })).toString('base64url');
    expect(verifyAction(secret, `${forgedBody}.${sig}`, 0)).toBeNull();
    expect(verifyAction('b'.repeat(40), token, 0)).toBeNull();
    expect(verifyAction(secret, `${body}.`, 0)).toBeNull();
    expect(verifyAction(secret, 'garbage', 0)).toBeNull();
  });
});
