import ipaddr from 'ipaddr.js';

/**
 * Which addresses an HTTP monitor may reach (SSRF protection). Only globally routable unicast
 * addresses are public; everything else (loopback, RFC 1918, ULA, link-local and cloud metadata,
 * unspecified, multicast, broadcast, carrier-grade NAT, reserved and documentation ranges, and
 * IPv6 forms that embed an IPv4 address we cannot vouch for) is refused.
 */
export type AddressClass = 'public' | 'private';

/** Why an address is refused, as ipaddr.js names its range (`loopback`, `private`, `linkLocal`, …); null when public. */
export function refusedRange(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // The zone (`fe80::1%eth0`) is cut at its `%` (indexOf, not /%.*$/, which is quadratic on `%%%…`).
    const bare = address.replace(/^\[|\]$/g, '');
    const zone = bare.indexOf('%');
    parsed = ipaddr.parse(zone === -1 ? bare : bare.slice(0, zone));
  } catch {
    return 'invalid';
  }
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  return range === 'unicast' ? null : range;
}

/** `public` when a monitor may connect to the address, `private` otherwise. */
export const classifyAddress = (address: string): AddressClass => (refusedRange(address) === null ? 'public' : 'private');

/** True for an IPv4 or IPv6 literal (brackets allowed). */
export const isIpLiteral = (host: string): boolean => ipaddr.isValid(host.replace(/^\[|\]$/g, ''));
