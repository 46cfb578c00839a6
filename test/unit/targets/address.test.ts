import { loadConfig } from '../../../src/config';
import { checkMonitorUrl } from '../../../src/domain/monitors/target';
import { checkTargetUrl, classifyAddress, isMetadataAddress, privateHostReason, refuseAddress, refusedRange } from '../../../src/domain/targets';

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
    ['::7f00:1', 'ipv4Compatible'],
    ['::a9fe:a9fe', 'ipv4Compatible'],
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
  const refused = (url: string) => checkMonitorUrl(url, { allowPrivate: false });

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
    expect(checkMonitorUrl('http://127.0.0.1:3000/', { allowPrivate: true }).ok).toBe(true);
    expect(privateHostReason('example.com')).toBeNull();
  });
});

describe('cloud metadata endpoints (refused even with ALLOW_PRIVATE_TARGETS)', () => {
  it.each([
    '169.254.169.254',
    '169.254.170.2',
    '100.100.100.200',
    '168.63.129.16',
    '192.0.0.192',
    'fd00:ec2::254',
    '[fd00:ec2::254]',
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
    '64:ff9b::a9fe:a9fe',
    '2002:a9fe:a9fe::',
    '::169.254.169.254',
  ])('when a connection would reach %s, then it is a metadata address, refused whether or not private targets are allowed', (address) => {
    expect(isMetadataAddress(address)).toBe(true);
    expect(refuseAddress(address, { allowPrivate: true })).toBe(true);
    expect(refuseAddress(address, { allowPrivate: false })).toBe(true);
  });

  it.each(['10.0.0.1', '127.0.0.1', '::1', 'fd00::1', '8.8.8.8', 'not an address'])('when it is %s, then it is not a metadata address', (address) => {
    expect(isMetadataAddress(address)).toBe(false);
  });

  it('when private targets are allowed, then private addresses may be reached; by default they may not; public ones always', () => {
    expect(refuseAddress('10.0.0.1', { allowPrivate: true })).toBe(false);
    expect(refuseAddress('10.0.0.1', { allowPrivate: false })).toBe(true);
    expect(refuseAddress('::1', { allowPrivate: false })).toBe(true);
    expect(refuseAddress('8.8.8.8', { allowPrivate: false })).toBe(false);
  });
});

describe('a delivery target’s URL as written (outgoing webhooks: https only)', () => {
  const strict = (url: string) => checkTargetUrl(url, { allowPrivate: false });
  const lax = (url: string) => checkTargetUrl(url, { allowPrivate: true });
  const message = (v: ReturnType<typeof checkTargetUrl>) => (v.ok ? null : v.message);

  it('when it is https to a public host, then it is accepted; http is refused unless private targets are allowed', () => {
    expect(strict('https://hooks.example.com/klaxon?x=1').ok).toBe(true);
    expect(message(strict('http://hooks.example.com/'))).toMatch(/^must be an https:\/\/ URL/);
    expect(lax('http://hooks.example.com/').ok).toBe(true);
    expect(message(strict('ftp://example.com/'))).toMatch(/https:\/\//);
  });

  it.each([
    ['https://127.0.0.1/', 'loopback'],
    ['https://localhost/', 'localhost'],
    ['https://10.1.2.3/', 'private'],
    ['https://[::1]/', 'loopback'],
    ['https://[::ffff:7f00:1]/', 'loopback'],
    ['https://2130706433/', 'loopback'], // 127.0.0.1 written as a number
    ['https://0x7f.1/', 'loopback'], // …in hex, shortened
    ['https://0177.0.0.1/', 'loopback'], // …in octal
    ['https://[fe80::1]/', 'linkLocal'],
  ])('when it is %s, then it is refused by default (%s) and accepted when private targets are allowed', (url, why) => {
    expect(message(strict(url))).toMatch(new RegExp(`private address \\(${why}\\)`));
    expect(lax(url).ok).toBe(true);
  });

  it.each([
    'https://169.254.169.254/latest/meta-data/',
    'http://169.254.169.254/',
    'https://[fd00:ec2::254]/',
    'https://100.100.100.200/',
    'https://2852039166/', // 169.254.169.254 as a number
    'https://0xa9.0xfe.0xa9.0xfe/',
    'https://[::ffff:a9fe:a9fe]/',
    'https://metadata.google.internal/computeMetadata/v1/',
    'https://METADATA.google.internal./',
    'https://168.63.129.16/',
  ])('when it is %s, then it is refused even when private targets are allowed', (url) => {
    expect(message(lax(url))).toMatch(/cloud metadata address/);
    expect(strict(url).ok).toBe(false);
  });
});

describe('ALLOW_PRIVATE_TARGETS', () => {
  it('when unset, then private targets are refused everywhere; when set (or its alias MONITOR_ALLOW_PRIVATE), then allowed for monitors and outgoing webhooks alike', () => {
    expect(loadConfig({}).targets).toEqual({ allowPrivate: false });
    expect(loadConfig({ ALLOW_PRIVATE_TARGETS: 'true' }).targets).toEqual({ allowPrivate: true });
    expect(loadConfig({ ALLOW_PRIVATE_TARGETS: 'true' }).monitors.allowPrivate).toBe(true);
    expect(loadConfig({ MONITOR_ALLOW_PRIVATE: '1' }).targets).toEqual({ allowPrivate: true });
    expect(() => loadConfig({ ALLOW_PRIVATE_TARGETS: 'yes' })).toThrow(/ALLOW_PRIVATE_TARGETS/);
  });
});
