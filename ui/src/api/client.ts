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
  const res = await fetch(`/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
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
