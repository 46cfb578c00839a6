import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIpLiteral, refusedRange } from '../../domain/monitors/address';
import { evaluateResponse, type Expectation } from '../../domain/monitors/evaluate';
import type { MonitorMethod } from '../../domain/monitors/target';

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
  /** MONITOR_ALLOW_PRIVATE: connect to private addresses too. */
  allowPrivate: boolean;
  /** Which addresses are refused; by default the private ones unless `allowPrivate` (tests narrow it). */
  refuse?: (address: string) => boolean;
}

/** The error a check reports when a name resolves to an address a monitor may not reach. */
export const PRIVATE_TARGET_ERROR = 'target resolves to a private address';
/** Redirects a check follows itself (each hop checked like the first) before it gives up. */
export const MAX_REDIRECTS = 5;
/** How much of a body is read for the keyword. */
const MAX_BODY_BYTES = 1024 * 1024;

class CheckFailed extends Error {}

/**
 * Resolves a name, checks EVERY address it resolves to, and hands the connection the addresses it
 * checked: the socket connects to what was checked, so a second resolution cannot swap in a
 * private address (no time-of-check/time-of-use gap, no DNS rebinding).
 */
export function guardedLookup(refuse: (address: string) => boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family, hints: options.hints }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      if (!addresses.length) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      if (addresses.some((a) => refuse(a.address))) return callback(new CheckFailed(PRIVATE_TARGET_ERROR), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** One HTTP exchange, no redirects followed: status, Location and (bounded) body. */
function exchange(url: URL, method: MonitorMethod, lookup: LookupFunction, signal: AbortSignal): Promise<{ status: number; location: string | null; body: string }> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? https.request : http.request;
    const req = send(url, { method, lookup, agent: false, signal, headers: { 'User-Agent': 'Klaxon-Monitor/1', Accept: '*/*', ...(method === 'POST' && { 'Content-Length': '0' }) } }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => resolve({ status: res.statusCode ?? 0, location: res.headers.location ?? null, body: Buffer.concat(chunks).toString('utf8') });
      res.on('data', (chunk: Buffer) => {
        if (size >= MAX_BODY_BYTES) return;
        chunks.push(chunk);
        size += chunk.length;
        if (size >= MAX_BODY_BYTES) {
          res.destroy();
          done();
        }
      });
      res.on('end', done);
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A readable reason for a failed exchange; never the URL's query (it may hold a token). */
function reasonOf(err: unknown, timeoutMs: number, signal: AbortSignal): string {
  if (signal.aborted) return `timed out after ${timeoutMs / 1000} s`;
  if (err instanceof CheckFailed) return err.message;
  const code = (err as { code?: string }).code;
  // A lookup refusal reaches us wrapped by net, with the same message.
  if ((err as Error).message === PRIVATE_TARGET_ERROR) return PRIVATE_TARGET_ERROR;
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
      return code ? `request failed (${code})` : `request failed: ${(err as Error).message}`;
  }
}

/**
 * Checks a URL the way a monitor does: the whole check (redirects included) within `timeoutMs`,
 * every hop's addresses checked before connecting, at most MAX_REDIRECTS redirects followed, the
 * final response judged by its status and keyword.
 */
export async function probe(input: ProbeInput): Promise<ProbeResult> {
  const started = performance.now();
  const signal = AbortSignal.timeout(input.timeoutMs);
  const refuse = input.refuse ?? ((address: string) => !input.allowPrivate && refusedRange(address) !== null);
  const lookup = guardedLookup(refuse);
  const result = (ok: boolean, statusCode: number | null, error: string | null): ProbeResult => ({ ok, statusCode, latencyMs: Math.round(performance.now() - started), error });
  let url = new URL(input.url);
  let method = input.method;
  for (let hop = 0; ; hop++) {
    const refusal = hopRefusal(url, refuse);
    if (refusal) return result(false, null, refusal);
    let res: Awaited<ReturnType<typeof exchange>>;
    try {
      res = await exchange(url, method, lookup, signal);
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

/** Why a hop may not be requested: not http(s), or a literal private address (names are checked by the lookup). */
function hopRefusal(url: URL, refuse: (address: string) => boolean): string | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `redirect to a non-HTTP URL (${url.protocol})`;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // A literal address is never looked up by net: check it here. Names go through guardedLookup.
  if (isIpLiteral(host)) return refuse(host) ? PRIVATE_TARGET_ERROR : null;
  return null;
}
