import ipaddr from 'ipaddr.js';

/**
 * Which addresses Klaxon may connect to on a customer's behalf (SSRF protection: HTTP monitors,
 * outgoing webhooks, and every later outbound target; docs/security.md). Only globally routable
 * unicast addresses are public; everything else (loopback, RFC 1918, ULA, link-local, unspecified,
 * multicast, broadcast, carrier-grade NAT, reserved and documentation ranges, and IPv6 forms that
 * embed an IPv4 address we cannot vouch for) is private. Cloud metadata services are refused
 * always, even where private addresses are allowed (ALLOW_PRIVATE_TARGETS): they hand out the
 * host's credentials.
 */
export type AddressClass = 'public' | 'private';

/** Parses a literal (brackets and an IPv6 zone allowed), IPv4-mapped IPv6 as its IPv4 address; null when not an address. */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  try {
    // The zone (`fe80::1%eth0`) is cut at its `%` (indexOf, not /%.*$/, which is quadratic on `%%%…`).
    const bare = address.replace(/^\[|\]$/g, '');
    const zone = bare.indexOf('%');
    const parsed = ipaddr.parse(zone === -1 ? bare : bare.slice(0, zone));
    return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress() ? (parsed as ipaddr.IPv6).toIPv4Address() : parsed;
  } catch {
    return null;
  }
}

/** True for an IPv6 address in ::/96 (the deprecated IPv4-compatible form), which ipaddr.js calls unicast. */
const isIpv4Compatible = (a: ipaddr.IPv6): boolean => a.parts.slice(0, 6).every((p) => p === 0);

/** Why an address is refused, as ipaddr.js names its range (`loopback`, `private`, `linkLocal`, …); null when public. */
export function refusedRange(address: string): string | null {
  const parsed = parseAddress(address);
  if (!parsed) return 'invalid';
  const range = parsed.range();
  if (range !== 'unicast') return range;
  // ::a.b.c.d would reach whatever IPv4 address it embeds: never vouched for.
  return parsed.kind() === 'ipv6' && isIpv4Compatible(parsed as ipaddr.IPv6) ? 'ipv4Compatible' : null;
}

/** `public` when Klaxon may connect to the address, `private` otherwise. */
export const classifyAddress = (address: string): AddressClass => (refusedRange(address) === null ? 'public' : 'private');

/** True for an IPv4 or IPv6 literal (brackets allowed). */
export const isIpLiteral = (host: string): boolean => ipaddr.isValid(host.replace(/^\[|\]$/g, ''));

/**
 * Cloud metadata and platform endpoints: all of IPv4 link-local (AWS, GCP, Azure, OCI,
 * DigitalOcean at 169.254.169.254; ECS task metadata at 169.254.170.2), AWS's IPv6 endpoint,
 * Alibaba's 100.100.100.200, Azure's wire server 168.63.129.16 and Oracle's 192.0.0.192.
 */
const METADATA_V4 = ['169.254.0.0/16', '100.100.100.200/32', '168.63.129.16/32', '192.0.0.192/32'].map((c) => ipaddr.IPv4.parseCIDR(c));
const METADATA_V6 = ['fd00:ec2::/64'].map((c) => ipaddr.IPv6.parseCIDR(c));

/** The IPv4 address an IPv6 address carries (NAT64 64:ff9b::/96, 6to4 2002::/16, IPv4-compatible ::/96), or null. */
function embeddedIpv4(a: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = a.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  const range = a.range();
  if (range === 'rfc6052' || (range === 'unicast' && isIpv4Compatible(a))) return v4(p[6], p[7]);
  if (range === '6to4') return v4(p[1], p[2]);
  return null;
}

/** True when the address is a cloud metadata endpoint, in any of its IPv4 or IPv6 spellings. */
export function isMetadataAddress(address: string): boolean {
  const parsed = parseAddress(address);
  if (!parsed) return false;
  const v4 = parsed.kind() === 'ipv4' ? (parsed as ipaddr.IPv4) : embeddedIpv4(parsed as ipaddr.IPv6);
  if (v4) return METADATA_V4.some((cidr) => v4.match(cidr));
  return METADATA_V6.some((cidr) => (parsed as ipaddr.IPv6).match(cidr));
}

/** Names that reach a metadata service from inside a cloud (they resolve to one of the addresses above). */
const METADATA_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.internal',
  'instance-data',
  'instance-data.ec2.internal',
]);

/** True when a host name (not an address) is a metadata service's well-known name. */
export const isMetadataName = (hostname: string): boolean => METADATA_NAMES.has(hostname.toLowerCase().replace(/\.$/, ''));

/**
 * Whether a connection to a resolved address is refused: a metadata endpoint always, any other
 * private address unless `allowPrivate` (ALLOW_PRIVATE_TARGETS).
 */
export const refuseAddress = (address: string, opts: { allowPrivate: boolean }): boolean =>
  isMetadataAddress(address) || (!opts.allowPrivate && refusedRange(address) !== null);
