import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import tls from 'node:tls';
import { isIpLiteral, isMetadataAddress, isMetadataHost, refusedRange } from '../../domain/targets';

/**
 * The guarded HTTP of every outbound target (docs/security.md): each request resolves its host,
 * checks EVERY resolved address before connecting, and connects only to what it checked. HTTP
 * monitors (src/services/monitors/probe.ts) follow redirects themselves, each hop checked as the
 * first; deliveries (`postJson`) never follow one.
 */

/** The error when a name resolves to (or a URL names) a private address that is not allowed. */
export const PRIVATE_TARGET_ERROR = 'target resolves to a private address';
/** The error when it is a cloud metadata endpoint: refused even with ALLOW_PRIVATE_TARGETS. */
export const METADATA_TARGET_ERROR = 'target resolves to a cloud metadata address';

/** Why a connection to an address is refused (one of the errors above), or null when it may connect. */
export type AddressGuard = (address: string) => string | null;

/**
 * The guard for a configuration: private addresses refused unless `allowPrivate`
 * (ALLOW_PRIVATE_TARGETS), metadata endpoints always. `refuse` replaces the private rule (tests
 * let their own loopback server stand for a public site); metadata stays refused whatever it says.
 */
export function addressGuard(opts: { allowPrivate: boolean; refuse?: (address: string) => boolean }): AddressGuard {
  const refuse = opts.refuse ?? ((address: string) => !opts.allowPrivate && refusedRange(address) !== null);
  return (address) => (refuse(address) ? PRIVATE_TARGET_ERROR : isMetadataAddress(address) ? METADATA_TARGET_ERROR : null);
}

class TargetRefused extends Error {}

/**
 * Resolves a name, checks EVERY address it resolves to, and hands the connection the addresses it
 * checked: the socket connects to what was checked, so a second resolution cannot swap in a
 * private address (no time-of-check/time-of-use gap, no DNS rebinding).
 */
export function guardedLookup(guard: AddressGuard): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family, hints: options.hints }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      if (!addresses.length) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      for (const a of addresses) {
        const refusal = guard(a.address);
        if (refusal) return callback(new TargetRefused(refusal), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** Why a URL may not be requested: not http(s), or a literal refused address (names are checked by the lookup). */
export function urlRefusal(url: URL, guard: AddressGuard): string | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `not an HTTP URL (${url.protocol})`;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // A literal address is never looked up by net: check it here. Names go through guardedLookup.
  return isIpLiteral(host) ? guard(host) : null;
}

export interface ExchangeRequest {
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** How much of the response body is kept; the rest is not read. */
  maxBodyBytes: number;
  /** Extra CA certificates (PEM) trusted for https, besides the system's: a private identity provider (SSO_CA_FILE). */
  ca?: string;
}

/** What an exchange answers: status, Location, headers and the body (at most `maxBodyBytes`, `truncated` when there was more). */
export interface ExchangeResponse {
  status: number;
  location: string | null;
  headers: http.IncomingHttpHeaders;
  body: string;
  truncated: boolean;
}

/** One HTTP exchange over the guarded lookup, no redirect followed: status, Location, headers and (bounded) body. */
export function exchange(url: URL, req: ExchangeRequest, guard: AddressGuard, signal: AbortSignal): Promise<ExchangeResponse> {
  const lookup = guardedLookup(guard);
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? https.request : http.request;
    const headers = { ...req.headers, ...(req.body !== undefined && { 'Content-Length': String(Buffer.byteLength(req.body)) }) };
    // `ca` replaces Node's list for this request: the system's roots are kept beside the extra ones.
    const ca = req.ca ? [...tls.rootCertificates, req.ca] : undefined;
    const r = send(url, { method: req.method, lookup, agent: false, signal, headers, ...(ca && { ca }) }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let settled = false;
      let truncated = false;
      const done = () => {
        if (settled) return;
        settled = true;
        const body = Buffer.concat(chunks);
        resolve({
          status: res.statusCode ?? 0,
          location: res.headers.location ?? null,
          headers: res.headers,
          body: body.subarray(0, req.maxBodyBytes).toString('utf8'),
          truncated,
        });
      };
      res.on('data', (chunk: Buffer) => {
        if (size >= req.maxBodyBytes) return;
        chunks.push(chunk);
        size += chunk.length;
        if (size >= req.maxBodyBytes) {
          // One byte past the cap is how we know there was more.
          truncated = size > req.maxBodyBytes;
          res.destroy();
          done();
        }
      });
      res.on('end', done);
      res.on('error', (err) => (settled ? undefined : reject(err)));
    });
    r.on('error', reject);
    r.end(req.body);
  });
}

/** A readable reason for a failed exchange; never the URL or its query (it may hold a token). */
export function reasonOf(err: unknown, timeoutMs: number, signal: AbortSignal): string {
  if (signal.aborted) return `timed out after ${timeoutMs / 1000} s`;
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

/** How long a delivery may take, and how much of the receiver's answer is read. */
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
}

/**
 * POSTs JSON to a customer's endpoint (an outgoing webhook delivery): https only unless
 * `allowPrivate`, every resolved address checked before connecting, no redirect followed (a 3xx is a failed attempt with its status),
 * the whole exchange within the timeout, at most POST_MAX_RESPONSE_BYTES of the answer read.
 * Never throws: a failure is a result.
 */
export async function postJson(url: string, opts: PostJsonOptions): Promise<PostJsonResult> {
  const started = performance.now();
  const timeoutMs = opts.timeoutMs ?? POST_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  const result = (status: number | null, error: string | null): PostJsonResult => ({ status, latencyMs: Math.round(performance.now() - started), error });
  const guard = addressGuard(opts);
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return result(null, 'invalid URL');
  }
  const refusal = urlRefusal(target, guard) ?? (isMetadataHost(target.hostname) ? METADATA_TARGET_ERROR : null);
  if (refusal) return result(null, refusal);
  // A URL stored while ALLOW_PRIVATE_TARGETS was on keeps its http:// after it is turned off: refused here too.
  if (target.protocol === 'http:' && !opts.allowPrivate) return result(null, 'plain http:// is not allowed (https:// only)');
  try {
    const headers = { 'User-Agent': 'Klaxon-Webhooks/1', Accept: '*/*', ...opts.headers, 'Content-Type': 'application/json' };
    const res = await exchange(target, { method: 'POST', headers, body: opts.body, maxBodyBytes: POST_MAX_RESPONSE_BYTES }, guard, signal);
    if (res.status >= 200 && res.status < 300) return result(res.status, null);
    if (res.status >= 300 && res.status < 400) return result(res.status, `redirect (${res.status}) not followed`);
    return result(res.status, `unexpected status ${res.status}`);
  } catch (err) {
    return result(null, reasonOf(err, timeoutMs, signal));
  }
}
