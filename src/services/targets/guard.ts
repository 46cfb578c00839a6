import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isIpLiteral, isMetadataAddress, refusedRange } from '../../domain/targets';

/**
 * The SSRF guard at the socket (docs/security.md): the bounded outbound client
 * (src/services/outbound/client.ts) resolves each host through `guardedLookup`, which checks EVERY
 * resolved address before connecting, and connects only to what it checked. The pure rules are
 * src/domain/targets.
 */

/** The error when a name resolves to (or a URL names) a private address that is not allowed. */
export const PRIVATE_TARGET_ERROR = 'target resolves to a private address';
/** The error when it is a cloud metadata endpoint: refused even with ALLOW_PRIVATE_TARGETS. */
export const METADATA_TARGET_ERROR = 'target resolves to a cloud metadata address';

/** Why a connection to an address is refused (one of the errors above), or null when it may connect. */
export type AddressGuard = (address: string) => string | null;

/**
 * The guard for a configuration: private addresses refused unless `allowPrivate`
 * (ALLOW_PRIVATE_TARGETS), metadata endpoints always. `refuse` replaces the private rule (tests
 * let their own loopback server stand for a public site); metadata stays refused whatever it says.
 */
export function addressGuard(opts: { allowPrivate: boolean; refuse?: (address: string) => boolean }): AddressGuard {
  const refuse = opts.refuse ?? ((address: string) => !opts.allowPrivate && refusedRange(address) !== null);
  return (address) => (refuse(address) ? PRIVATE_TARGET_ERROR : isMetadataAddress(address) ? METADATA_TARGET_ERROR : null);
}

/** A lookup's refusal: its message is one of the errors above. */
export class TargetRefused extends Error {}

/**
 * Resolves a name, checks EVERY address it resolves to, and hands the connection the addresses it
 * checked: the socket connects to what was checked, so a second resolution cannot swap in a
 * private address (no time-of-check/time-of-use gap, no DNS rebinding).
 */
export function guardedLookup(guard: AddressGuard): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family, hints: options.hints }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      if (!addresses.length) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      for (const a of addresses) {
        const refusal = guard(a.address);
        if (refusal) return callback(new TargetRefused(refusal), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** Why a URL may not be requested: not http(s), or a literal refused address (names are checked by the lookup). */
export function urlRefusal(url: URL, guard: AddressGuard): string | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `not an HTTP URL (${url.protocol})`;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // A literal address is never looked up by net: check it here. Names go through guardedLookup.
  return isIpLiteral(host) ? guard(host) : null;
}
