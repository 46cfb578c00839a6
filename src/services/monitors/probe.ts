import { evaluateResponse, type Expectation } from '../../domain/monitors/evaluate';
import type { MonitorMethod } from '../../domain/monitors/target';
import { OutboundError, outboundClient, type OutboundResponse } from '../outbound';

export { PRIVATE_TARGET_ERROR, METADATA_TARGET_ERROR, guardedLookup } from '../targets';

/** What a check found: a failed check is a result like any other, never a thrown error. */
export interface ProbeResult {
  ok: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

export interface ProbeInput extends Expectation {
  url: string;
  method: MonitorMethod;
  timeoutMs: number;
  /** ALLOW_PRIVATE_TARGETS (alias MONITOR_ALLOW_PRIVATE): connect to private addresses too (metadata never). */
  allowPrivate: boolean;
  /** Which addresses are refused; by default the private ones unless `allowPrivate` (tests narrow it). */
  refuse?: (address: string) => boolean;
}

/** Redirects a check follows itself (each hop checked like the first) before it gives up. */
export const MAX_REDIRECTS = 5;
/** How much of a body is read for the keyword. */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Checks a URL the way a monitor does, through the bounded client as a supplied URL (plain http
 * allowed: a monitor reads a public page and sends no secret): the whole check (redirects
 * included) within `timeoutMs`, every hop's addresses checked before connecting, at most
 * MAX_REDIRECTS redirects followed (each hop a request of its own, the client follows none), the
 * first MAX_BODY_BYTES of the final answer judged by its status and keyword.
 */
export async function probe(input: ProbeInput): Promise<ProbeResult> {
  const started = performance.now();
  const signal = AbortSignal.timeout(input.timeoutMs);
  const client = outboundClient({
    target: 'supplied',
    allowPrivate: input.allowPrivate,
    allowHttp: true,
    refuse: input.refuse,
    headers: { 'User-Agent': 'Klaxon-Monitor/1', Accept: '*/*' },
    deadlineMs: input.timeoutMs,
    maxBytes: MAX_BODY_BYTES,
    overflow: 'truncate',
  });
  const result = (ok: boolean, statusCode: number | null, error: string | null): ProbeResult => ({
    ok,
    statusCode,
    latencyMs: Math.round(performance.now() - started),
    error,
  });
  let url = new URL(input.url);
  let method = input.method;
  for (let hop = 0; ; hop++) {
    let res: OutboundResponse;
    try {
      res = await client.request(url, { method, body: method === 'POST' ? '' : undefined, signal });
    } catch (err) {
      if (!(err instanceof OutboundError)) throw err;
      if (err.kind === 'invalid_url') return result(false, null, `redirect to a non-HTTP URL (${url.protocol})`);
      // The signal is the whole check's deadline (redirects included): a timeout either way.
      return result(false, null, err.kind === 'aborted' ? `timed out after ${input.timeoutMs / 1000} s` : err.message);
    }
    if (res.status >= 300 && res.status < 400 && res.location) {
      if (hop >= MAX_REDIRECTS) return result(false, res.status, `more than ${MAX_REDIRECTS} redirects`);
      try {
        url = new URL(res.location, url);
      } catch {
        return result(false, res.status, 'redirect to an invalid URL');
      }
      // As browsers do: 303, and 301/302 after a POST, continue with GET.
      if (res.status === 303 || (method === 'POST' && (res.status === 301 || res.status === 302))) method = 'GET';
      continue;
    }
    const verdict = evaluateResponse({ status: res.status, body: res.text() }, input);
    return result(verdict.ok, res.status, verdict.error);
  }
}
