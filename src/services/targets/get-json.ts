import type { IncomingHttpHeaders } from 'node:http';
import { OutboundError, outboundRequest } from '../outbound/client';

/** How long one read may take, and how much of its answer is read at most (an importer's page of a few hundred records). */
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
 * GETs JSON from a third party's API (an importer reading PagerDuty or Opsgenie) through the
 * bounded client as a supplied URL: https only unless `allowPrivate` (a credential travels in the
 * headers), every resolved address checked, no redirect followed, the whole exchange within the
 * timeout, and an answer longer than the cap refused rather than cut. Never throws.
 */
export async function getJson(url: string, opts: GetJsonOptions): Promise<GetJsonResult> {
  const fail = (error: string, status: number | null = null, headers: IncomingHttpHeaders = {}): GetJsonResult => ({ ok: false, status, headers, error });
  let res;
  try {
    res = await outboundRequest(url, {
      target: 'supplied',
      allowPrivate: opts.allowPrivate,
      headers: { 'User-Agent': 'Klaxon-Importer/1', Accept: 'application/json', ...opts.headers },
      deadlineMs: opts.timeoutMs ?? GET_TIMEOUT_MS,
      maxBytes: opts.maxBytes ?? GET_MAX_RESPONSE_BYTES,
    });
  } catch (err) {
    if (err instanceof OutboundError) return fail(err.message, err.status, err.headers);
    throw err;
  }
  if (res.status >= 300 && res.status < 400) return fail(`redirect (${res.status}) not followed`, res.status, res.headers);
  const text = res.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // An error page (a proxy's HTML 502) still has a status worth acting on.
    if (res.status < 200 || res.status >= 300) return { ok: true, status: res.status, headers: res.headers, body: undefined };
    return fail(`answer is not JSON (status ${res.status})`, res.status, res.headers);
  }
  return { ok: true, status: res.status, headers: res.headers, body };
}
