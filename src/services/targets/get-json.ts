import type { IncomingHttpHeaders } from 'node:http';
import { isMetadataHost } from '../../domain/targets';
import { addressGuard, exchange, METADATA_TARGET_ERROR, reasonOf, urlRefusal } from './http';

/** How long one read may take, and how much of its answer is read at most. */
export const GET_TIMEOUT_MS = 30_000;
export const GET_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

export interface GetJsonOptions {
  /** Sent as is; they may hold a credential, so nothing here ever echoes them. */
  headers: Record<string, string>;
  /** ALLOW_PRIVATE_TARGETS: private addresses and plain http:// allowed (metadata endpoints never). */
  allowPrivate: boolean;
  timeoutMs?: number;
  maxBytes?: number;
}

/** A read's outcome: the status, headers and parsed body; or why no usable answer came (never the URL, never a header sent). */
export type GetJsonResult =
  { ok: true; status: number; headers: IncomingHttpHeaders; body: unknown } | { ok: false; status: number | null; headers: IncomingHttpHeaders; error: string };

/**
 * GETs JSON from a third party's API (an importer reading PagerDuty or Opsgenie) through the one
 * SSRF guard: https only unless `allowPrivate` (a credential travels in the headers), every
 * resolved address checked before connecting, no redirect followed, the whole exchange within the
 * timeout, and an answer longer than the cap refused rather than cut. Never throws.
 */
export async function getJson(url: string, opts: GetJsonOptions): Promise<GetJsonResult> {
  const timeoutMs = opts.timeoutMs ?? GET_TIMEOUT_MS;
  const maxBytes = opts.maxBytes ?? GET_MAX_RESPONSE_BYTES;
  const fail = (error: string, status: number | null = null, headers: IncomingHttpHeaders = {}): GetJsonResult => ({ ok: false, status, headers, error });
  const guard = addressGuard(opts);
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return fail('invalid URL');
  }
  const refusal = urlRefusal(target, guard) ?? (isMetadataHost(target.hostname) ? METADATA_TARGET_ERROR : null);
  if (refusal) return fail(refusal);
  if (target.protocol === 'http:' && !opts.allowPrivate) return fail('plain http:// is not allowed (https:// only)');
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const headers = { 'User-Agent': 'Klaxon-Importer/1', Accept: 'application/json', ...opts.headers };
    const res = await exchange(target, { method: 'GET', headers, maxBodyBytes: maxBytes + 1 }, guard, signal);
    if (res.truncated || Buffer.byteLength(res.body) > maxBytes) return fail(`answer larger than ${maxBytes} bytes`, res.status, res.headers);
    if (res.status >= 300 && res.status < 400) return fail(`redirect (${res.status}) not followed`, res.status, res.headers);
    let body: unknown;
    try {
      body = res.body === '' ? undefined : JSON.parse(res.body);
    } catch {
      // An error page (a proxy's HTML 502) still has a status worth acting on.
      if (res.status < 200 || res.status >= 300) return { ok: true, status: res.status, headers: res.headers, body: undefined };
      return fail(`answer is not JSON (status ${res.status})`, res.status, res.headers);
    }
    return { ok: true, status: res.status, headers: res.headers, body };
  } catch (err) {
    return fail(reasonOf(err, timeoutMs, signal));
  }
}
