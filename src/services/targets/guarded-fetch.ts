import { isMetadataHost } from '../../domain/targets';
import { addressGuard, exchange, METADATA_TARGET_ERROR, reasonOf, urlRefusal } from './http';

/** How much of an answer a guarded fetch reads at most (discovery documents, key sets, token answers are a few KiB). */
export const FETCH_MAX_RESPONSE_BYTES = 1024 * 1024;

export interface GuardedFetchOptions {
  /** ALLOW_PRIVATE_TARGETS: private addresses allowed (metadata endpoints never). */
  allowPrivate: boolean;
  /** Extra CA certificates (PEM) trusted for https (SSO_CA_FILE). */
  ca?: string;
  /** Tests only: replaces the private rule (see addressGuard). */
  refuse?: (address: string) => boolean;
}

/** The subset of fetch's options a library's custom fetch hands over (openid-client's `customFetch`). */
export interface FetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | URLSearchParams | null | unknown;
  signal?: AbortSignal | null;
}

/** Thrown when the guard refuses a URL or the exchange fails; the message never holds the URL or a header. */
export class GuardedFetchError extends Error {}

const bodyOf = (body: FetchInit['body']): string | undefined => {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  throw new GuardedFetchError('request body of an unsupported kind');
};

/**
 * A `fetch` with the shape libraries accept as a custom fetch (openid-client), over the one SSRF
 * guard (docs/security.md): https only unless `allowPrivate`, every resolved address checked
 * before connecting, no redirect followed (a 3xx is answered as is), at most
 * FETCH_MAX_RESPONSE_BYTES read (a longer answer is an error, not cut).
 */
export function guardedFetch(opts: GuardedFetchOptions): (url: string, init?: FetchInit) => Promise<Response> {
  const guard = addressGuard(opts);
  return async (url, init = {}) => {
    const target = new URL(url);
    const refusal = urlRefusal(target, guard) ?? (isMetadataHost(target.hostname) ? METADATA_TARGET_ERROR : null);
    if (refusal) throw new GuardedFetchError(refusal);
    if (target.protocol === 'http:' && !opts.allowPrivate) throw new GuardedFetchError('plain http:// is not allowed (https:// only)');
    const timeoutMs = 30_000;
    const signal = init.signal ?? AbortSignal.timeout(timeoutMs);
    const body = bodyOf(init.body);
    const headers: Record<string, string> = { 'User-Agent': 'Klaxon-SSO/1', ...init.headers };
    if (init.body instanceof URLSearchParams && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['Content-Type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
    let res;
    try {
      res = await exchange(target, { method: init.method ?? 'GET', headers, body, maxBodyBytes: FETCH_MAX_RESPONSE_BYTES + 1, ca: opts.ca }, guard, signal);
    } catch (err) {
      throw new GuardedFetchError(reasonOf(err, timeoutMs, signal));
    }
    if (res.truncated) throw new GuardedFetchError(`answer larger than ${FETCH_MAX_RESPONSE_BYTES} bytes`);
    const answerHeaders = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) answerHeaders.append(name, v);
    }
    // A Response cannot carry a body with these statuses.
    const bodyless = res.status === 204 || res.status === 304 || (res.status >= 100 && res.status < 200);
    return new Response(bodyless ? null : res.body, { status: res.status, headers: answerHeaders });
  };
}
