import { classifyAddress, refusedRange } from '../../../src/domain/monitors/address';
import { checkTargetUrl, privateHostReason } from '../../../src/domain/monitors/target';

describe('which addresses a monitor may reach', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fd00:ec2::254', 'uniqueLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::7f00:1', 'rfc6052'],
    ['2002:7f00:1::', '6to4'],
  ])('when a check resolves to %s, then it is refused (%s)', (address, range) => {
    expect(refusedRange(address)).toBe(range);
    expect(classifyAddress(address)).toBe('private');
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'])('when a check resolves to %s, then it may connect', (address) => {
    expect(refusedRange(address)).toBeNull();
    expect(classifyAddress(address)).toBe('public');
  });
});

describe('a monitor’s URL as written', () => {
  const refused = (url: string) => checkTargetUrl(url, { allowPrivate: false });

  it.each([
    ['http://127.0.0.1/', /private address \(loopback\)/],
    ['http://localhost:8080/health', /private address \(localhost\)/],
    ['http://api.localhost/', /private address \(localhost\)/],
    ['http://[::1]/', /private address \(loopback\)/],
    ['http://169.254.169.254/latest/meta-data/', /private address \(linkLocal\)/],
    ['http://[fd00:ec2::254]/', /private address \(uniqueLocal\)/],
    ['http://2130706433/', /private address \(loopback\)/], // 127.0.0.1 written as a number
    ['http://0x7f.1/', /private address \(loopback\)/],
    ['ftp://example.com/', /http:\/\/ or https:\/\//],
    ['file:///etc/passwd', /http:\/\/ or https:\/\//],
    ['not a url', /absolute http/],
    ['https://user:secret@example.com/', /user name or password/],
  ])('when it is %s, then it is refused: %s', (url, message) => {
    const verdict = refused(url);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.message).toMatch(message);
  });

  it('when it names a public host or address, then it is accepted; a private one only when MONITOR_ALLOW_PRIVATE allows it', () => {
    expect(refused('https://example.com/health?x=1').ok).toBe(true);
    expect(refused('http://93.184.216.34/').ok).toBe(true);
    expect(checkTargetUrl('http://127.0.0.1:3000/', { allowPrivate: true }).ok).toBe(true);
    expect(privateHostReason('example.com')).toBeNull();
  });
});
