import { throttleKeyOf } from '../../src/domain/throttle-key';

describe('throttleKeyOf', () => {
  it('when IPv6 clients differ only in their last 64 bits, then they share one key, their /64; another /64 is another key', () => {
    const key = throttleKeyOf('2001:db8:1:2::1');
    expect(key).toBe('2001:db8:1:2::/64');
    for (const address of ['2001:db8:1:2::2', '2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:DB8:1:2:a:b:c:d']) expect(throttleKeyOf(address)).toBe(key);
    expect(throttleKeyOf('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
  });

  it('when the client is IPv4, or IPv4-mapped IPv6, then the key is the IPv4 address itself', () => {
    expect(throttleKeyOf('192.0.2.7')).toBe('192.0.2.7');
    expect(throttleKeyOf('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(throttleKeyOf('::ffff:c000:207')).toBe('192.0.2.7');
    expect(throttleKeyOf('192.0.2.8')).not.toBe(throttleKeyOf('192.0.2.7'));
  });

  it('when the address is not one (no peer), then it is kept as it is', () => {
    expect(throttleKeyOf('')).toBe('');
    expect(throttleKeyOf('unknown')).toBe('unknown');
  });
});
