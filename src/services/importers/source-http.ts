import type { IncomingHttpHeaders } from 'node:http';
import { checkTargetUrl } from '../../domain/targets';
import { getJson, METADATA_TARGET_ERROR, PRIVATE_TARGET_ERROR, type GetJsonOptions, type GetJsonResult } from '../targets';

/** Why an import could not read its source; the message names the system, never the credential. */
export class ImportSourceError extends Error {
  constructor(
    readonly code: 'source_token_refused' | 'source_unavailable' | 'source_rate_limited' | 'source_bad_answer' | 'source_url_refused',
    message: string,
  ) {
    super(message);
    this.name = 'ImportSourceError';
  }
}

export interface SourceHttpOptions {
  /** "PagerDuty" or "Opsgenie", for messages. */
  label: string;
  /** The API's base URL (https://api.pagerduty.com); a path prefix is kept. */
  baseUrl: string;
  /** Sent with every request; they hold the credential, so they are never logged or echoed. */
  headers: Record<string, string>;
  /** ALLOW_PRIVATE_TARGETS (tests reach their fakes on 127.0.0.1). */
  allowPrivate: boolean;
  /** Attempts per request before giving up (5). */
  maxAttempts?: number;
  /** First backoff, doubled each retry (250 ms). */
  baseDelayMs?: number;
  /** The longest wait a 429 may ask for before the import gives up (60 s). */
  maxWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** The guarded GET (tests replace it). */
  get?: (url: string, opts: GetJsonOptions) => Promise<GetJsonResult>;
}

/** Query values: repeated keys (`include[]`) as arrays. */
export type Query = Record<string, string | number | readonly string[] | undefined>;

/** A source API's reads: JSON GETs with bounded retries, as the importer's clients make them. */
export interface SourceHttp {
  get(path: string, query?: Query): Promise<unknown>;
  /** Requests sent so far, retries included (the bench reports it). */
  readonly requests: number;
}

// Refusals and malformed answers: trying again would not change them.
const FINAL_ERRORS = [PRIVATE_TARGET_ERROR, METADATA_TARGET_ERROR, 'invalid URL', 'plain http', 'answer larger', 'answer is not JSON', 'redirect'];

/** Seconds to wait that a 429 or 503 asks for: Retry-After (seconds or a date), else PagerDuty's ratelimit-reset. */
export function askedWaitMs(headers: IncomingHttpHeaders, now = Date.now()): number | undefined {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const retryAfter = one(headers['retry-after'])?.trim();
  if (retryAfter) {
    if (/^\d{1,9}$/.test(retryAfter)) return Number(retryAfter) * 1000;
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.max(0, at - now);
  }
  const reset = one(headers['ratelimit-reset'])?.trim();
  if (reset && /^\d{1,9}$/.test(reset)) return Number(reset) * 1000;
  return undefined;
}

/**
 * The base URL checked by the one SSRF guard's rules before any credential is sent to it: http(s),
 * a host, no user name or password, not a metadata endpoint, public unless ALLOW_PRIVATE_TARGETS.
 */
export function checkedBaseUrl(label: string, raw: string, allowPrivate: boolean): string {
  const verdict = checkTargetUrl(raw, { allowPrivate, who: 'the importer reads' });
  if (!verdict.ok) throw new ImportSourceError('source_url_refused', `the ${label} API URL ${verdict.message}`);
  let url = verdict.url.toString();
  while (url.endsWith('/')) url = url.slice(0, -1);
  return url;
}

/** A client for one source API; see SourceHttpOptions. */
export function sourceHttp(opts: SourceHttpOptions): SourceHttp {
  const base = checkedBaseUrl(opts.label, opts.baseUrl, opts.allowPrivate);
  const maxAttempts = opts.maxAttempts ?? 5;
  const baseDelay = opts.baseDelayMs ?? 250;
  const maxWait = opts.maxWaitMs ?? 60_000;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const get = opts.get ?? getJson;
  let requests = 0;

  const urlOf = (path: string, query: Query = {}) => {
    const url = new URL(base + path);
    for (const [key, value] of Object.entries(query)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [String(value)]) url.searchParams.append(key, v);
    }
    return url.toString();
  };

  return {
    get requests() {
      return requests;
    },
    async get(path, query) {
      const url = urlOf(path, query);
      let last = '';
      for (let attempt = 1; ; attempt++) {
        requests++;
        const res = await get(url, { headers: opts.headers, allowPrivate: opts.allowPrivate });
        if (res.ok && res.status >= 200 && res.status < 300) return res.body;
        const status = res.status;
        const error = res.ok ? '' : res.error;
        if (status === 401 || status === 403) {
          throw new ImportSourceError(
            'source_token_refused',
            `${opts.label} refused the API credential (${status}): check that it is right, not revoked, and may read this account`,
          );
        }
        const retryable = status === 429 || (status !== null && status >= 500) || (status === null && !FINAL_ERRORS.some((f) => error.startsWith(f)));
        last = status === null ? error : `status ${status}`;
        if (!retryable) {
          const why = error || `answered status ${status}`;
          throw new ImportSourceError('source_bad_answer', `${opts.label} ${why} for ${path}`);
        }
        if (attempt >= maxAttempts) break;
        const asked = askedWaitMs(res.headers);
        if (asked !== undefined && asked > maxWait) {
          throw new ImportSourceError(
            'source_rate_limited',
            `${opts.label} asked to wait ${Math.ceil(asked / 1000)} s before the next request: try again later`,
          );
        }
        // Backoff with jitter, unless the source said how long.
        await sleep(asked ?? baseDelay * 2 ** (attempt - 1) * (0.5 + Math.random() / 2));
      }
      const code = last === 'status 429' ? 'source_rate_limited' : 'source_unavailable';
      throw new ImportSourceError(code, `could not read ${opts.label} at ${new URL(base).origin} (${last}, ${maxAttempts} attempts): try again later`);
    },
  };
}

/** Runs `fn` over items, at most `limit` at a time, results in order (reads of one source, politely parallel). */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Parses a source's answer with its schema; a mismatch is a clear error naming where, never the values. */
export function parseAnswer<S extends import('zod').ZodType>(label: string, path: string, schema: S, body: unknown): import('zod').output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const where = parsed.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`)
    .join('; ');
  throw new ImportSourceError('source_bad_answer', `${label}'s answer to ${path} is not what its API documents (${where})`);
}
