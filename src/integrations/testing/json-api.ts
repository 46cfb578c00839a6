import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { close, listen } from './http-util';

/**
 * A small JSON API server for wire fakes of third-party REST APIs (PagerDuty, Opsgenie): it checks
 * each request's credential, answers from a route function, and can be told to fail — the next N
 * requests, or every one — with a status and headers (429 with Retry-After, 500).
 */

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
}

export interface FakeAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** What the fake saw: enough to assert on pagination and retries, never the credential itself. */
export interface SeenRequest {
  path: string;
  query: Record<string, string[]>;
  authorized: boolean;
  accept: string | undefined;
  at: number;
}

export class JsonApiFake {
  /** Answers for the next requests, one each, before the routes are asked. */
  readonly faults: FakeAnswer[] = [];
  /** When set, every request gets it. */
  failing: FakeAnswer | undefined;
  readonly requests: SeenRequest[] = [];
  url = '';
  private readonly server: http.Server;

  constructor(
    private readonly authorized: (headers: http.IncomingHttpHeaders) => boolean,
    private readonly unauthorized: FakeAnswer,
    private readonly route: (req: FakeRequest, base: string) => FakeAnswer | undefined,
    private readonly notFound: FakeAnswer,
  ) {
    this.server = http.createServer((req, res) => this.handle(req, res));
  }

  async start(): Promise<this> {
    this.url = `http://127.0.0.1:${await listen(this.server)}`;
    return this;
  }

  stop(): Promise<void> {
    return close(this.server);
  }

  /** Requests to a path (without its query). */
  requestsTo(path: string): SeenRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', this.url);
    const authorized = this.authorized(req.headers);
    const query: Record<string, string[]> = {};
    for (const [k, v] of url.searchParams) (query[k] ??= []).push(v);
    this.requests.push({ path: url.pathname, query, authorized, accept: req.headers.accept, at: Date.now() });
    const answer =
      this.faults.shift() ??
      this.failing ??
      (!authorized
        ? this.unauthorized
        : req.method !== 'GET'
          ? { status: 405, body: { message: 'only GET here' } }
          : (this.route({ method: req.method, path: url.pathname, query: url.searchParams, headers: req.headers }, this.url) ?? this.notFound));
    const body = answer.body === undefined ? '' : JSON.stringify(answer.body);
    res.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers });
    res.end(body);
  }
}

/** Whole weeks to move fixture instants by so the earliest lies a week ahead of `now` (local times and weekdays kept, DST aside). */
export function weeksAhead(earliest: string, now: Date): number {
  const week = 7 * 86_400_000;
  return Math.ceil((now.getTime() + week - Date.parse(earliest)) / week);
}

/** An ISO instant moved by whole weeks, keeping its offset notation simple (UTC). */
export const shiftWeeks = (iso: string, weeks: number): string => new Date(Date.parse(iso) + weeks * 7 * 86_400_000).toISOString();

/** The domain the fixture accounts' people use (`alice@example.com`). */
export const FIXTURE_DOMAIN = 'example.com';

/**
 * A mail domain of its own for one copy of a fixture account: people are matched by email and an
 * account is one per address, so two tests importing the same fixture into two workspaces would
 * otherwise share (and adopt, or refuse) each other's people.
 */
export const ownDomain = (): string => `${randomBytes(4).toString('hex')}.example.com`;

/** A fixture file's text with its people's addresses moved to `domain`. */
export const inDomain = (text: string, domain: string): string => text.split(`@${FIXTURE_DOMAIN}"`).join(`@${domain}"`);
