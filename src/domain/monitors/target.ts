import { isIpLiteral, refusedRange } from './address';

/** HTTP methods a monitor checks with. */
export const MONITOR_METHODS = ['GET', 'HEAD', 'POST'] as const;
export type MonitorMethod = (typeof MONITOR_METHODS)[number];

/** Longest URL a monitor accepts. */
export const MAX_MONITOR_URL = 2048;

export type TargetVerdict = { ok: true; url: URL } | { ok: false; message: string };

/**
 * Whether a URL may be a monitor's target: http or https, a host, no user name or password (they
 * would be a secret shown in every read). With `allowPrivate` false, a literal private address or
 * a localhost name is refused here; names that resolve to one are refused at each check.
 */
export function checkTargetUrl(raw: string, opts: { allowPrivate: boolean }): TargetVerdict {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: 'must be an absolute http:// or https:// URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, message: 'must be an http:// or https:// URL' };
  if (!url.hostname) return { ok: false, message: 'must name a host' };
  if (url.username || url.password) return { ok: false, message: 'must not contain a user name or password' };
  if (!opts.allowPrivate) {
    const why = privateHostReason(url.hostname);
    if (why) return { ok: false, message: `targets a private address (${why}): monitors check public addresses only` };
  }
  return { ok: true, url };
}

/** Why a URL's host is private as written (a literal address or a localhost name), or null. */
export function privateHostReason(hostname: string): string | null {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'localhost';
  if (isIpLiteral(host)) return refusedRange(host);
  return null;
}
