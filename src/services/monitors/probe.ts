import { evaluateResponse, type Expectation } from '../../domain/monitors/evaluate';
import type { MonitorMethod } from '../../domain/monitors/target';
import { addressGuard, exchange, reasonOf, urlRefusal } from '../targets';

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
 * Checks a URL the way a monitor does, through the shared guard (src/services/targets): the whole
 * check (redirects included) within `timeoutMs`, every hop's addresses checked before connecting,
 * at most MAX_REDIRECTS redirects followed, the final response judged by its status and keyword.
 */
export async function probe(input: ProbeInput): Promise<ProbeResult> {
  const started = performance.now();
  const signal = AbortSignal.timeout(input.timeoutMs);
  const guard = addressGuard({ allowPrivate: input.allowPrivate, refuse: input.refuse });
  const result = (ok: boolean, statusCode: number | null, error: string | null): ProbeResult => ({
    ok,
    statusCode,
    latencyMs: Math.round(performance.now() - started),
    error,
  });
  let url = new URL(input.url);
  let method = input.method;
  for (let hop = 0; ; hop++) {
    const refusal = urlRefusal(url, guard);
    if (refusal) return result(false, null, refusal.startsWith('not an HTTP URL') ? `redirect to a non-HTTP URL (${url.protocol})` : refusal);
    let res: Awaited<ReturnType<typeof exchange>>;
    try {
      const headers = { 'User-Agent': 'Klaxon-Monitor/1', Accept: '*/*' };
      res = await exchange(url, { method, headers, body: method === 'POST' ? '' : undefined, maxBodyBytes: MAX_BODY_BYTES }, guard, signal);
    } catch (err) {
      return result(false, null, reasonOf(err, input.timeoutMs, signal));
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
    const verdict = evaluateResponse({ status: res.status, body: res.body }, input);
    return result(verdict.ok, res.status, verdict.error);
  }
}
