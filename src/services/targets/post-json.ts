import { retryAfterMs } from '../../domain/retry-after';
import { OutboundError, outboundRequest } from '../outbound/client';

/** How long a delivery may take, and how much of the receiver's answer is read (the rest is not: only the status counts). */
export const POST_TIMEOUT_MS = 10_000;
export const POST_MAX_RESPONSE_BYTES = 4096;

export interface PostJsonOptions {
  headers: Record<string, string>;
  /** The JSON text sent as is (it is what the signature covers). */
  body: string;
  /** 10 s unless told. */
  timeoutMs?: number;
  /** ALLOW_PRIVATE_TARGETS: private addresses allowed (metadata endpoints never). */
  allowPrivate: boolean;
  /** Tests only: replaces the private rule (see addressGuard). */
  refuse?: (address: string) => boolean;
}

export interface PostJsonResult {
  /** The receiver's status, null when none came (refused, DNS, connection, timeout). */
  status: number | null;
  latencyMs: number;
  /** null on a 2xx; otherwise why the attempt failed (never the URL, never the body sent). */
  error: string | null;
  /** A 429 or 503's Retry-After, in milliseconds (src/domain/retry-after.ts); absent otherwise. */
  retryAfterMs?: number;
}

/**
 * POSTs JSON to a customer's endpoint (an outgoing webhook delivery, a Microsoft Teams card) through the
 * bounded client as a supplied URL: https only unless `allowPrivate`, every resolved address
 * checked, no redirect followed (a 3xx is a failed attempt with its status), the whole exchange
 * within the timeout, at most POST_MAX_RESPONSE_BYTES of the answer read. Never throws.
 */
export async function postJson(url: string, opts: PostJsonOptions): Promise<PostJsonResult> {
  const started = performance.now();
  const result = (status: number | null, error: string | null): PostJsonResult => ({ status, latencyMs: Math.round(performance.now() - started), error });
  try {
    const res = await outboundRequest(url, {
      target: 'supplied',
      allowPrivate: opts.allowPrivate,
      refuse: opts.refuse,
      method: 'POST',
      headers: { 'User-Agent': 'Klaxon-Webhooks/1', Accept: '*/*', ...opts.headers, 'Content-Type': 'application/json' },
      body: opts.body,
      deadlineMs: opts.timeoutMs ?? POST_TIMEOUT_MS,
      maxBytes: POST_MAX_RESPONSE_BYTES,
      overflow: 'truncate',
    });
    if (res.status >= 200 && res.status < 300) return result(res.status, null);
    if (res.status >= 300 && res.status < 400) return result(res.status, `redirect (${res.status}) not followed`);
    const wait = res.status === 429 || res.status === 503 ? retryAfterMs(res.headers['retry-after'], new Date()) : null;
    return { ...result(res.status, `unexpected status ${res.status}`), ...(wait !== null && { retryAfterMs: wait }) };
  } catch (err) {
    if (err instanceof OutboundError) return result(null, err.message);
    throw err;
  }
}
