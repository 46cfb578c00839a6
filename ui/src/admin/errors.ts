import { ApiError } from '../api/client';

/** The server's error code, when the error is a refused /api call. */
export const codeOf = (err: unknown): string | undefined => (err instanceof ApiError ? err.code : undefined);
