/** The dashboard's error body (docs/architecture.md, "Error envelopes"). */
export interface ApiErrorBody {
  success: false;
  error: string;
  code: string;
  timestamp: string;
}

/** A refused /api call: its status, code, the server's message and, on a 429, when to ask again. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** The message for people: a 429 whose message does not say when to retry gets Retry-After's answer. */
export function describeError(error: Error): string {
  if (error instanceof ApiError && error.status === 429 && error.retryAfterSeconds !== undefined && !/\d\s*s\b/.test(error.message)) {
    return `${error.message} (try again in ${error.retryAfterSeconds} s)`;
  }
  return error.message;
}

/** The code of a call that got no answer (offline, server down). */
export const OFFLINE = 'offline';

let csrfToken: string | undefined;
/** Remembered from login and GET /api/auth/session; sent on every state-changing call. */
export const setCsrfToken = (token: string | undefined) => {
  csrfToken = token;
};

/** Calls /api with the session cookie (same origin) and, for changes, the CSRF header. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<{ data: T; message: string; meta?: unknown }> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  let res: Response;
  try {
    res = await fetch(`/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  } catch {
    // No answer at all: offline, or the server is down. The installed app opens offline (its
    // shell is cached), but /api never comes from a cache, so this is what it says then.
    throw new ApiError(0, OFFLINE, 'Klaxon cannot be reached: you are offline or the server is down. Try again once connected.');
  }
  const json = await res.json().catch(() => undefined);
  if (!res.ok) {
    const err = json as ApiErrorBody | undefined;
    const retryAfter = Number(res.headers.get('Retry-After'));
    throw new ApiError(
      res.status,
      err?.code ?? 'error',
      err?.error ?? `the server answered ${res.status}`,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
    );
  }
  return json;
}
