// A fake /api for component tests: fetch is stubbed with canned answers per route, in the
// server's envelope, and the calls made are kept for the test to read.
import { vi } from 'vitest';
import type { SessionView } from '../api/types';

type Answer = { status: number; body: unknown };
/** What one route answers: the same each time, one after another (the last repeats), or from the request body. */
export type Route = Answer | Answer[] | ((body: unknown) => Answer);

/** A success: `{ success: true, data, message }`. */
export const ok = (data: unknown, message = 'ok', status = 200): Answer => ({ status, body: { success: true, data, message } });
/** A refusal in the server's error envelope: `{ success: false, error, code }`. */
export const refused = (status: number, code: string, error: string): Answer => ({
  status,
  body: { success: false, error, code, timestamp: '2026-11-30T10:00:00.000Z' },
});

const keyOf = (url: string, init: RequestInit | undefined) => `${init?.method ?? 'GET'} ${url.replace(/^\/api/, '')}`;
const bodyOf = (init: RequestInit | undefined): unknown => (typeof init?.body === 'string' ? JSON.parse(init.body) : undefined);

/** Routes keyed "METHOD /path". */
export type FakeRoutes = Record<string, Route>;

/**
 * Stubs fetch with routes keyed "METHOD /path" (without /api; with the query string, if any). A
 * route not listed answers 404. Returns the mock, and `calls(key)`: the parsed bodies sent to a route.
 * The test's afterEach calls `vi.unstubAllGlobals()`.
 */
export function fakeApi(routes: FakeRoutes) {
  const served: Record<string, number> = {};
  const fetch = vi.fn(async (url: string, init: RequestInit = {}) => {
    const key = keyOf(url, init);
    const route = routes[key];
    if (!route) return new Response(JSON.stringify({ success: false, error: `no fake for ${key}`, code: 'not_found' }), { status: 404 });
    const n = (served[key] = (served[key] ?? 0) + 1);
    const answer = typeof route === 'function' ? route(bodyOf(init)) : Array.isArray(route) ? route[Math.min(n, route.length) - 1] : route;
    // A 204 has no body (DELETE /integrations/slack).
    const body = answer.status === 204 ? null : JSON.stringify(answer.body);
    return new Response(body, { status: answer.status, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetch);
  /** The calls made to one route, with their parsed bodies. */
  const calls = (key: string) => fetch.mock.calls.filter(([url, init]) => keyOf(url, init) === key).map(([, init]) => bodyOf(init));
  return { fetch, calls };
}

/** GET /auth/session's data for someone signed in with `role`. */
export const sessionAs = (role: SessionView['role'], over: Partial<SessionView['user']> = {}): SessionView => ({
  user: { id: '00000000-0000-4000-8000-000000000001', email: 'ada@example.test', name: 'Ada', verified: true, ...over },
  organization: { id: '00000000-0000-4000-8000-0000000000aa', name: 'Acme', plan: 'PRO' },
  role,
  csrf_token: 'csrf-1',
});
