import { emailDomain, mayLogInWithPassword, normaliseDomain } from '../../../src/domain/sso';

describe('SSO email domains', () => {
  it('when a domain is typed in any case or with a trailing dot, then it has one spelling', () => {
    expect(normaliseDomain(' Acme.COM. ')).toBe('acme.com');
    expect(normaliseDomain('eu.corp-1.example')).toBe('eu.corp-1.example');
  });

  it.each(['localhost', 'acme', '-acme.com', 'acme-.com', 'ac me.com', 'acme..com', '*.acme.com', 'acme.c', `${'a'.repeat(64)}.com`, ''])(
    'when %j is given, then it is no domain',
    (input) => expect(normaliseDomain(input)).toBeUndefined(),
  );

  it('when an email address is read, then its domain is the part after the last @', () => {
    expect(emailDomain('Ada@Acme.com')).toBe('acme.com');
    expect(emailDomain('"a@b"@acme.com')).toBe('acme.com');
    expect(emailDomain('no-at-sign')).toBeUndefined();
    expect(emailDomain('@acme.com')).toBeUndefined();
  });

  it('when a hostile domain of 100,000 characters comes, then it is refused at once', () => {
    const started = performance.now();
    for (const input of ['a-'.repeat(50_000), 'a.'.repeat(50_000), `${'a'.repeat(100_000)}!`]) expect(normaliseDomain(input)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('when require_sso is on, then only Billing Owners may still use a password (break-glass)', () => {
    expect(mayLogInWithPassword(true, 'BILLING_OWNER')).toBe(true);
    for (const role of ['ACCOUNT_ADMIN', 'TEAM_MANAGER', 'MEMBER'] as const) expect(mayLogInWithPassword(true, role)).toBe(false);
    expect(mayLogInWithPassword(false, 'MEMBER')).toBe(true);
  });
});
