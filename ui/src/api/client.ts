/** The dashboard's error body (design.md §8). */
export interface ApiErrorBody {
  success: false;
  error: string;
  code: string;
  timestamp: string;
}

/** A refused /api call: its status, code and the server's message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
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
    throw new ApiError(res.status, err?.code ?? 'error', err?.error ?? `the server answered ${res.status}`);
  }
  return json;
}
