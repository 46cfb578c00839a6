import ipaddr from 'ipaddr.js';

/** A parsed CIDR list: IPv4 and IPv6 ranges (a bare address is a /32 or /128). */
export type CidrList = ReadonlyArray<[ipaddr.IPv4 | ipaddr.IPv6, number]>;

/** Parses CIDRs (`10.0.0.0/8`, `2001:db8::/32`, `192.0.2.7`); the error names each bad entry. */
export function parseCidrs(entries: readonly string[]): { ok: true; cidrs: CidrList; normalised: string[] } | { ok: false; message: string } {
  const bad: string[] = [];
  const cidrs: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> = [];
  for (const entry of entries) {
    const text = entry.trim();
    try {
      cidrs.push(text.includes('/') ? ipaddr.parseCIDR(text) : [ipaddr.parse(text), ipaddr.parse(text).kind() === 'ipv4' ? 32 : 128]);
    } catch {
      bad.push(JSON.stringify(entry));
    }
  }
  if (bad.length) return { ok: false, message: `not an IPv4 or IPv6 address or CIDR: ${bad.join(', ')}` };
  return { ok: true, cidrs, normalised: cidrs.map(([addr, bits]) => `${addr.toString()}/${bits}`) };
}

/** The address as ipaddr parses it, IPv4-mapped IPv6 (`::ffff:127.0.0.1`) as IPv4. */
export function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (!ipaddr.isValid(address)) return undefined;
  return ipaddr.process(address);
}

/** True when the address is in one of the ranges (an IPv4 address never matches an IPv6 range, and back). */
export function addressInCidrs(address: string, cidrs: CidrList): boolean {
  const addr = parseAddress(address);
  if (!addr) return false;
  return cidrs.some(([range, bits]) => range.kind() === addr.kind() && addr.match(range, bits));
}

/** True for 127.0.0.0/8, ::1 and their IPv4-mapped forms. */
export function isLoopback(address: string): boolean {
  return parseAddress(address)?.range() === 'loopback';
}
