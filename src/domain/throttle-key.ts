/**
 * The key a per-IP throttle counts a client under (docs/security.md, "The client IP"). An IPv4
 * client is its address. An IPv6 client is its /64: one subscriber, host or LAN is given a whole
 * /64 and may pick any of its 2^64 addresses, so keying by address would hand it a fresh budget
 * per request. IPv4-mapped IPv6 (`::ffff:192.0.2.7`) is the IPv4 address it maps.
 */
import ipaddr from 'ipaddr.js';
import { parseAddress } from './cidr';

/** The prefix length that names one IPv6 client. */
export const IPV6_CLIENT_PREFIX_BITS = 64;

/** `192.0.2.7` → `192.0.2.7`; `2001:db8:1:2::1` → `2001:db8:1:2::/64`; anything unparseable (no peer) stays as it is. */
export function throttleKeyOf(ip: string): string {
  const address = parseAddress(ip.trim());
  if (!address) return ip;
  if (address.kind() === 'ipv4') return address.toString();
  const bytes = address.toByteArray();
  const prefixBytes = IPV6_CLIENT_PREFIX_BITS / 8;
  const network = bytes.map((b, i) => (i < prefixBytes ? b : 0));
  return `${ipaddr.fromByteArray(network).toString()}/${IPV6_CLIENT_PREFIX_BITS}`;
}
