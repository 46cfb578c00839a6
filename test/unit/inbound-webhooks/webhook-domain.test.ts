import { addressInCidrs, isLoopback, parseCidrs } from '../../../src/domain/cidr';
import { parseFormB } from '../../../src/domain/ingest/form-b';
import { planIngest } from '../../../src/domain/ingest/plan';
import { looksLikeApiKey, mintApiKey } from '../../../src/domain/api-key';
import { signatureMatches, signBody } from '../../../src/domain/inbound-webhook-signature';
import { aliasOf, canManageWebhook, notificationTypesOf } from '../../../src/domain/inbound-webhooks';

describe('CIDR allowlists', () => {
  const list = (entries: string[]) => {
    const parsed = parseCidrs(entries);
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.cidrs;
  };

  it('when addresses are checked, then IPv4 and IPv6 ranges match their own family, bare addresses are single hosts, and IPv4-mapped IPv6 counts as IPv4', () => {
    const cidrs = list(['10.1.0.0/16', '2001:db8::/32', '192.0.2.7']);
    expect(addressInCidrs('10.1.200.3', cidrs)).toBe(true);
    expect(addressInCidrs('10.2.0.1', cidrs)).toBe(false);
    expect(addressInCidrs('2001:db8:ffff::1', cidrs)).toBe(true);
    expect(addressInCidrs('2001:db9::1', cidrs)).toBe(false);
    expect(addressInCidrs('192.0.2.7', cidrs)).toBe(true);
    expect(addressInCidrs('192.0.2.8', cidrs)).toBe(false);
    expect(addressInCidrs('::ffff:10.1.0.9', cidrs)).toBe(true);
    expect(addressInCidrs('not an address', cidrs)).toBe(false);
  });

  it('when entries are invalid, then the error names each one; valid ones are normalised', () => {
    expect(parseCidrs(['10.0.0.0/33', 'fe80::/129', 'example.com', '10.0.0.0/8'])).toEqual({
      ok: false,
      message: expect.stringMatching(/"10\.0\.0\.0\/33", "fe80::\/129", "example\.com"$/),
    });
    expect(parseCidrs(['192.0.2.7', '2001:DB8::/32'])).toMatchObject({ ok: true, normalised: ['192.0.2.7/32', '2001:db8::/32'] });
  });

  it('when the peer is loopback, then 127/8 and ::1 (and their mapped forms) say so, others do not', () => {
    expect(['127.0.0.1', '127.0.0.2', '::1', '::ffff:127.0.0.1'].map(isLoopback)).toEqual([true, true, true, true]);
    expect(['10.0.0.1', '::2', ''].map(isLoopback)).toEqual([false, false, false]);
  });
});

describe('X-Service-Signature', () => {
  it('when the body is signed with the secret, then it matches in any hex case; another secret, another body or a bad header does not', () => {
    const body = Buffer.from('{"title":"x"}');
    const signature = signBody('s3cret', body);
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(signatureMatches('s3cret', body, signature)).toBe(true);
    expect(signatureMatches('s3cret', body, signature.toUpperCase().replace('SHA256', 'sha256'))).toBe(true);
    expect(signatureMatches('other', body, signature)).toBe(false);
    expect(signatureMatches('s3cret', Buffer.from('{"title":"y"}'), signature)).toBe(false);
    expect(signatureMatches('s3cret', body, undefined)).toBe(false);
    expect(signatureMatches('s3cret', body, signature.replace('sha256=', ''))).toBe(false);
  });
});

describe('Form B', () => {
  it('when a body is valid, then severity defaults to info and tags, url and source are kept', () => {
    expect(parseFormB({ title: ' Disk ', tags: { host: 'a', n: 3, on: true }, url: 'https://x.example/1', source: 'grafana' })).toEqual({
      ok: true,
      event: {
        title: 'Disk',
        message: null,
        severity: 'INFO',
        source: 'grafana',
        dedupKey: null,
        tags: { host: 'a', n: '3', on: 'true' },
        url: 'https://x.example/1',
      },
    });
    expect(parseFormB({ title: 'x', severity: 'CRITICAL' })).toMatchObject({ ok: true, event: { severity: 'CRITICAL' } });
    expect(parseFormB({ title: 'x', severity: 'warning' })).toMatchObject({ ok: true, event: { severity: 'MEDIUM' } });
  });

  it('when a body is invalid, then one message names every problem', () => {
    expect(parseFormB({ message: 'no title' })).toEqual({ ok: false, message: expect.stringMatching(/title/) });
    expect(parseFormB({ title: 'x', severity: 'high' })).toEqual({ ok: false, message: expect.stringMatching(/critical, warning, info/) });
    expect(parseFormB({ title: 'x', tags: ['a'] })).toEqual({ ok: false, message: expect.stringMatching(/tags/) });
    expect(parseFormB({ title: 'x', url: 'javascript:alert(1)' })).toEqual({ ok: false, message: expect.stringMatching(/url must be an http/) });
    expect(parseFormB([])).toEqual({ ok: false, message: 'body must be a JSON object' });
  });

  it('when the receiver plans a plain body, then it is Form B; on an ingestion URL the same body is Form A', () => {
    const b = planIngest({ title: 'x' }, {}, 'B');
    const a = planIngest({ title: 'x' }, {});
    expect(b).toMatchObject({ ok: true, sender: 'form-b', items: [{ severity: 'INFO' }] });
    expect(a).toMatchObject({ ok: true, sender: 'form-a', items: [{ severity: 'MEDIUM' }] });
  });
});

describe('webhook rules', () => {
  it('when roles are checked, then admins and billing owners may manage any webhook, team managers only their team’s, members none', () => {
    expect(canManageWebhook('ACCOUNT_ADMIN', false)).toBe(true);
    expect(canManageWebhook('BILLING_OWNER', false)).toBe(true);
    expect(canManageWebhook('TEAM_MANAGER', true)).toBe(true);
    expect(canManageWebhook('TEAM_MANAGER', false)).toBe(false);
    expect(canManageWebhook('MEMBER', true)).toBe(false);
  });

  it('when channels are shown, then as the dashboard names them; aliases are slugs', () => {
    expect(notificationTypesOf(['sms', 'voice', 'email', 'push'])).toEqual(['SMS', 'CALL', 'EMAIL', 'PUSH_NOTIF']);
    expect(aliasOf('Prod DB alerts!')).toBe('prod-db-alerts');
    expect(aliasOf('!!!')).toBe('webhook');
  });

  it('when API keys are minted, then they have the documented shape and differ', () => {
    const [a, b] = [mintApiKey(), mintApiKey()];
    expect(looksLikeApiKey(a.plaintext)).toBe(true);
    expect(a.plaintext).not.toBe(b.plaintext);
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(looksLikeApiKey('klx_' + 'A'.repeat(43))).toBe(false);
  });
});
