/**
 * The bounded client in the shape of `fetch`, for libraries that take a custom one:
 * openid-client's `customFetch`, `@slack/web-api`'s `fetch` option, google-auth-library's (gaxios')
 * `fetchImplementation`. The answer is read to the cap within the deadline before the library sees
 * it, so whatever the library then does with the body (`text()`, `json()`) holds at most the cap.
 */
import { OutboundError, outboundClient, type OutboundPolicy } from './client';

/** The subset of fetch's options these libraries hand over. */
export interface OutboundFetchInit {
  method?: string;
  headers?: HeadersInit | Record<string, string>;
  body?: unknown;
  signal?: AbortSignal | null;
  /** `error` (Slack's): a 3xx throws; `manual` and `follow`: the 3xx is answered as is (never followed). */
  redirect?: string;
}

export type OutboundFetch = (input: string | URL | { url: string }, init?: OutboundFetchInit) => Promise<Response>;

/** Request headers as a plain object; Accept-Encoding dropped, so answers come unencoded (nothing here decompresses). */
function headersOf(given: OutboundFetchInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(given as HeadersInit | undefined).forEach((value, name) => {
    if (name !== 'accept-encoding') out[name] = value;
  });
  return out;
}

/** Any body fetch accepts (a string, URLSearchParams, FormData, bytes) as bytes and the content type fetch would give it. */
async function bodyOf(body: unknown): Promise<{ bytes?: Buffer; contentType?: string }> {
  if (body === undefined || body === null) return {};
  if (typeof body === 'string') return { bytes: Buffer.from(body, 'utf8') };
  if (Buffer.isBuffer(body)) return { bytes: body };
  const encoded = new Response(body as BodyInit);
  return { bytes: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type') ?? undefined };
}

/** A `fetch` over one bounded client (`policy`); its errors are OutboundErrors, whose messages never hold the URL. */
export function outboundFetch(policy: OutboundPolicy): OutboundFetch {
  const client = outboundClient(policy);
  return async (input, init = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers = headersOf(init.headers);
    const { bytes, contentType } = await bodyOf(init.body);
    if (contentType && !('content-type' in headers)) headers['content-type'] = contentType;
    const res = await client.request(url, { method: init.method ?? 'GET', headers, body: bytes, signal: init.signal ?? undefined });
    if (res.status >= 300 && res.status < 400 && init.redirect === 'error')
      throw new OutboundError('network', `redirect (${res.status}) not followed`, res.status, res.headers);
    const answerHeaders = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) answerHeaders.append(name, v);
    }
    // A Response cannot carry a body with these statuses.
    const bodyless = res.status === 204 || res.status === 304 || (res.status >= 100 && res.status < 200);
    const response = new Response(bodyless ? null : (res.body as unknown as BodyInit), { status: res.status, headers: answerHeaders });
    Object.defineProperty(response, 'url', { value: url });
    return response;
  };
}
