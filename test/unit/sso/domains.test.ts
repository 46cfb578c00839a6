import { emailDomain, isFreshIdpAuthentication, mayLogInWithPassword, normaliseDomain, provesDomain, txtRecordOf } from '../../../src/domain/sso';

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

  it('when a domain’s TXT records are read, then only one exactly the proof (its strings joined, blanks around ignored) proves it', () => {
    expect(txtRecordOf('tok')).toBe('klaxon-verification=tok');
    expect(provesDomain([['v=spf1 -all'], [' klaxon-verification=tok ']], 'tok')).toBe(true);
    expect(provesDomain([['klaxon-verif', 'ication=tok']], 'tok')).toBe(true);
    for (const records of [
      [],
      [['klaxon-verification=tok2']],
      [['klaxon-verification=to']],
      [['klaxon-verification=tok', ' x']],
      [['KLAXON-VERIFICATION=tok']],
    ])
      expect(provesDomain(records, 'tok')).toBe(false);
  });

  it('when an IdP says when it authenticated someone, then a step-up counts only for the last two minutes (a little clock skew ahead allowed)', () => {
    const now = new Date('2026-12-12T10:00:00Z');
    const ago = (s: number) => new Date(now.getTime() - s * 1000);
    expect(isFreshIdpAuthentication(ago(0), now)).toBe(true);
    expect(isFreshIdpAuthentication(ago(120), now)).toBe(true);
    expect(isFreshIdpAuthentication(ago(121), now)).toBe(false);
    expect(isFreshIdpAuthentication(ago(-20), now)).toBe(true);
    expect(isFreshIdpAuthentication(ago(-60), now)).toBe(false);
    expect(isFreshIdpAuthentication(undefined, now)).toBe(false);
    expect(isFreshIdpAuthentication(new Date('nonsense'), now)).toBe(false);
  });
});
