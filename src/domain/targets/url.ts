import { isIpLiteral, isMetadataAddress, isMetadataName, refusedRange } from './address';

/** Longest target URL Klaxon accepts (monitors, outgoing webhooks). */
export const MAX_TARGET_URL = 2048;

export type TargetVerdict = { ok: true; url: URL } | { ok: false; message: string };

export interface TargetRules {
  /** ALLOW_PRIVATE_TARGETS (or its alias MONITOR_ALLOW_PRIVATE): private addresses allowed, metadata still refused. */
  allowPrivate: boolean;
  /**
   * Plain http:// accepted for public hosts too. Monitors only read a public page and send no
   * secret, so they keep http; anything that sends data (outgoing webhooks) is https-only, with
   * http allowed only where private targets are (a trusted network).
   */
  allowHttp?: boolean;
  /** Who checks, for the refusal: `monitors check public addresses only`. */
  who?: string;
}

/**
 * Whether a URL may be a target as written: https (or http, see `allowHttp`), a host, no user
 * name or password (they would be a secret shown in every read), not a cloud metadata endpoint
 * (never, whatever `allowPrivate`) and, unless `allowPrivate`, no literal private address or
 * localhost name. Names that resolve to a refused address are refused at each connection
 * (src/services/targets/http.ts).
 */
export function checkTargetUrl(raw: string, rules: TargetRules): TargetVerdict {
  const httpOk = rules.allowHttp === true || rules.allowPrivate;
  const schemes = httpOk ? 'http:// or https://' : 'https://';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: `must be an absolute ${schemes} URL` };
  }
  if (url.protocol !== 'https:' && !(httpOk && url.protocol === 'http:')) return { ok: false, message: `must be an ${schemes} URL` };
  if (!url.hostname) return { ok: false, message: 'must name a host' };
  if (url.username || url.password) return { ok: false, message: 'must not contain a user name or password' };
  if (!rules.allowPrivate) {
    const why = privateHostReason(url.hostname);
    if (why) return { ok: false, message: `targets a private address (${why}): ${rules.who ?? 'Klaxon connects to'} public addresses only` };
  }
  if (isMetadataHost(url.hostname)) return { ok: false, message: 'targets a cloud metadata address, which is never allowed' };
  return { ok: true, url };
}

/** Why a URL's host is private as written (a literal address or a localhost name), or null. */
export function privateHostReason(hostname: string): string | null {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'localhost';
  if (isIpLiteral(host)) return refusedRange(host);
  return null;
}

/** True when a URL's host is a metadata endpoint as written: its address in any spelling, or a well-known name. */
export function isMetadataHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  return isIpLiteral(host) ? isMetadataAddress(host) : isMetadataName(host);
}
