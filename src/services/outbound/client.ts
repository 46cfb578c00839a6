/**
 * The one bounded outbound HTTP client (docs/security.md, "Outbound requests"). Every request
 * Klaxon makes to a URL a workspace supplied or a third party answers goes through here, and
 * nothing else in src/ calls `http.request`, `https.request` or `fetch` (eslint.config.mjs):
 *
 * * one deadline for the whole exchange (connecting, the headers and the body): 10 s unless told;
 * * a cap on the answer's bytes: 64 KiB unless told; past it the socket is destroyed, so an endless
 *   answer costs at most the cap in memory;
 * * an AbortSignal of the caller's (a provider call given up on) ends the request, it is never
 *   left running;
 * * no redirect followed: a 3xx is answered as is, with its Location;
 * * the SSRF guard (src/services/targets/guard.ts) on every resolved address: a workspace's URL
 *   (`supplied`) may not reach a private address unless ALLOW_PRIVATE_TARGETS, nor plain http://;
 *   an operator-configured third-party API (`fixed`: FCM, Slack, SNS) skips the private rule;
 *   cloud metadata endpoints are refused for both.
 */
import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import { isMetadataHost } from '../../domain/targets';
import { addressGuard, guardedLookup, METADATA_TARGET_ERROR, PRIVATE_TARGET_ERROR, TargetRefused, urlRefusal, type AddressGuard } from '../targets/guard';

/** The whole exchange's deadline unless a caller says otherwise. */
export const OUTBOUND_DEADLINE_MS = 10_000;
/** How much of an answer is read unless a caller says otherwise. */
export const OUTBOUND_MAX_BYTES = 64 * 1024;

export interface OutboundPolicy {
  /**
   * Whose URL it is. `supplied`: a workspace gave it (webhooks, Microsoft Teams, web push endpoints, OIDC
   * issuers, importers' API URLs, monitors): the whole SSRF guard. `fixed`: the operator's
   * configuration names the host (FCM, Slack's API, SNS): metadata endpoints refused, nothing else.
   */
  target: 'supplied' | 'fixed';
  /** `supplied` only: ALLOW_PRIVATE_TARGETS, private addresses and plain http:// allowed (metadata never). */
  allowPrivate?: boolean;
  /** `supplied` only: plain http:// to public addresses too (monitors read public pages and send no secret). */
  allowHttp?: boolean;
  /** Tests only: replaces the private rule (see addressGuard). */
  refuse?: (address: string) => boolean;
  /** Extra CA certificates (PEM) trusted besides Node's own (WEB_PUSH_CA_FILE, SSO_CA_FILE). */
  ca?: string;
  /** Keep connections open for the next request to the same origin (a sender's one client); one-shot requests never do. */
  keepAlive?: boolean;
  /** Headers every request of this client sends (a User-Agent); a request's own headers win. */
  headers?: Record<string, string>;
  deadlineMs?: number;
  maxBytes?: number;
  /** An answer longer than maxBytes: an error (`fail`, the default), or its first maxBytes bytes marked `truncated`. */
  overflow?: 'fail' | 'truncate';
}

export interface OutboundRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Ends the request when aborted (the provider call's deadline). */
  signal?: AbortSignal;
  deadlineMs?: number;
  maxBytes?: number;
  overflow?: 'fail' | 'truncate';
}

/** An answer, read whole (or to the cap, when `truncate` was asked for). */
export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The Location header of a 3xx (never followed here). */
  location: string | null;
  body: Buffer;
  /** More came than maxBytes (only with overflow `truncate`; `fail` throws instead). */
  truncated: boolean;
  latencyMs: number;
  text(): string;
}

/** Why an exchange gave no usable answer. */
export type OutboundErrorKind = 'invalid_url' | 'refused' | 'timeout' | 'aborted' | 'too_large' | 'network';

/**
 * Thrown for every failed exchange. The message is readable and never holds the URL, a header or
 * a body (a URL's path or query may be a capability); `status` is set when the answer's head had
 * come (a body too large or too slow after a `500`), so a caller can still act on it.
 */
export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundErrorKind,
    message: string,
    readonly status: number | null = null,
    readonly headers: http.IncomingHttpHeaders = {},
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

/** A readable reason for a socket or lookup failure; never the URL. */
function networkReason(err: unknown): string {
  if (err instanceof TargetRefused) return err.message;
  // A lookup refusal reaches us wrapped by net, with the same message.
  const message = (err as Error).message;
  if (message === PRIVATE_TARGET_ERROR || message === METADATA_TARGET_ERROR) return message;
  const code = (err as { code?: string }).code;
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'DNS lookup failed';
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
    default:
      return code ? `request failed (${code})` : `request failed: ${message}`;
  }
}

const isRefusal = (err: unknown) =>
  err instanceof TargetRefused || (err as Error).message === PRIVATE_TARGET_ERROR || (err as Error).message === METADATA_TARGET_ERROR;

/** Why this policy may not request this URL as written (names are checked again at each lookup), or null. */
function refusalOf(url: URL, policy: OutboundPolicy, guard: AddressGuard): OutboundError | null {
  const refused = urlRefusal(url, guard) ?? (isMetadataHost(url.hostname) ? METADATA_TARGET_ERROR : null);
  if (refused) return new OutboundError(refused.startsWith('not an HTTP URL') ? 'invalid_url' : 'refused', refused);
  // A URL stored while ALLOW_PRIVATE_TARGETS was on keeps its http:// after it is turned off: refused here too.
  if (policy.target === 'supplied' && url.protocol === 'http:' && !policy.allowPrivate && !policy.allowHttp)
    return new OutboundError('refused', 'plain http:// is not allowed (https:// only)');
  return null;
}

/** The guard of a policy: the SSRF guard for a supplied URL; for a fixed host, metadata endpoints only. */
function guardOf(policy: OutboundPolicy): AddressGuard {
  return policy.target === 'supplied'
    ? addressGuard({ allowPrivate: policy.allowPrivate ?? false, refuse: policy.refuse })
    : addressGuard({ allowPrivate: true, refuse: () => false });
}

/** A client for one policy: `request` as often as needed, `close` to drop kept-alive connections. */
export interface OutboundClient {
  request(url: string | URL, req?: OutboundRequest): Promise<OutboundResponse>;
  close(): void;
}

/** A client with one policy (and, with `keepAlive`, one pair of agents whose lookups are guarded). */
export function outboundClient(policy: OutboundPolicy): OutboundClient {
  const guard = guardOf(policy);
  const lookup = guardedLookup(guard);
  // `ca` replaces Node's list: the system's roots are kept beside the extra ones.
  const ca = policy.ca ? [...tls.rootCertificates, policy.ca] : undefined;
  const agents = policy.keepAlive
    ? { 'http:': new http.Agent({ keepAlive: true, lookup }), 'https:': new https.Agent({ keepAlive: true, lookup, ...(ca && { ca }) }) }
    : undefined;
  return {
    async request(raw, req = {}) {
      let url: URL;
      try {
        url = typeof raw === 'string' ? new URL(raw) : raw;
      } catch {
        throw new OutboundError('invalid_url', 'invalid URL');
      }
      const refusal = refusalOf(url, policy, guard);
      if (refusal) throw refusal;
      const transport = agents ? { agent: agents[url.protocol as 'http:' | 'https:'] } : { agent: false as const, lookup, ...(ca && { ca }) };
      return exchange(url, req, policy, transport);
    },
    close() {
      agents?.['http:'].destroy();
      agents?.['https:'].destroy();
    },
  };
}

/** One request with a policy and no kept-alive connection. */
export function outboundRequest(url: string | URL, req: OutboundRequest & OutboundPolicy): Promise<OutboundResponse> {
  return outboundClient(req).request(url, req);
}

type Transport = Pick<https.RequestOptions, 'agent' | 'lookup' | 'ca'>;

/** One exchange: no redirect followed, the deadline over all of it, the body read to the cap. */
function exchange(url: URL, req: OutboundRequest, policy: OutboundPolicy, transport: Transport): Promise<OutboundResponse> {
  const deadlineMs = req.deadlineMs ?? policy.deadlineMs ?? OUTBOUND_DEADLINE_MS;
  const maxBytes = req.maxBytes ?? policy.maxBytes ?? OUTBOUND_MAX_BYTES;
  const overflow = req.overflow ?? policy.overflow ?? 'fail';
  const started = performance.now();
  const headers: Record<string, string> = { ...policy.headers, ...req.headers };
  if (req.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(req.body));
  return new Promise<OutboundResponse>((resolve, reject) => {
    if (req.signal?.aborted) return reject(new OutboundError('aborted', 'aborted before it was sent'));
    let response: http.IncomingMessage | undefined;
    let settled = false;
    const chunks: Buffer[] = [];
    let size = 0;

    /** Settles once; an error (or a truncated answer) destroys the socket: nothing more is read or kept. */
    const finish = (outcome: { error: OutboundError } | { truncated: boolean }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
      if ('error' in outcome || outcome.truncated) {
        request.destroy();
        response?.destroy();
      }
      if ('error' in outcome) return reject(outcome.error);
      const body = Buffer.concat(chunks, size);
      const res = response!;
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        location: res.headers.location ?? null,
        body,
        truncated: outcome.truncated,
        latencyMs: Math.round(performance.now() - started),
        text: () => body.toString('utf8'),
      });
    };
    const fail = (kind: OutboundErrorKind, message: string) =>
      finish({ error: new OutboundError(kind, message, response?.statusCode ?? null, response?.headers ?? {}) });
    const timer = setTimeout(() => fail('timeout', `timed out after ${deadlineMs / 1000} s`), deadlineMs);
    const onAbort = () => fail('aborted', 'aborted: the call was given up on');
    req.signal?.addEventListener('abort', onAbort, { once: true });

    const send = url.protocol === 'https:' ? https.request : http.request;
    const request = send(url, { method: req.method ?? 'GET', headers, ...transport }, (res) => {
      response = res;
      const declared = Number(res.headers['content-length']);
      if (overflow === 'fail' && declared > maxBytes) return fail('too_large', `answer larger than ${maxBytes} bytes`);
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        const room = maxBytes - size;
        if (chunk.length > room) {
          if (overflow === 'fail') return fail('too_large', `answer larger than ${maxBytes} bytes`);
          chunks.push(chunk.subarray(0, room));
          size = maxBytes;
          return finish({ truncated: true });
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      res.on('end', () => finish({ truncated: false }));
      res.on('error', (err) => fail(isRefusal(err) ? 'refused' : 'network', networkReason(err)));
      // The peer closed before the body ended (no 'end'): a reset, not an answer.
      res.on('close', () => (res.complete ? undefined : fail('network', 'connection reset')));
    });
    request.on('error', (err) => fail(isRefusal(err) ? 'refused' : 'network', networkReason(err)));
    request.end(req.body);
  });
}
