import type { AccessLevel, ApiKey, ApiToken } from './types';

/** The server's API_TOKEN_MAX_DAYS (src/domain/api-token.ts needs node:crypto, so it is not imported here). */
export const TOKEN_MAX_DAYS = 30;

export const ACCESS_OPTIONS: Array<{ value: AccessLevel; label: string }> = [
  { value: 'READ_ONLY', label: 'Read only' },
  { value: 'READ_WRITE', label: 'Read and write' },
];

export interface TokenForm {
  name: string;
  access: AccessLevel;
  days: number | string;
}

/** `POST /api/tokens`'s body: a blank name is left out (the server would refuse an empty one). */
export function tokenBody(form: TokenForm): { access: AccessLevel; days: number; name?: string } {
  const name = form.name.trim();
  return { access: form.access, days: Number(form.days), ...(name ? { name } : {}) };
}

/** `POST /api/api-keys`'s body: a blank name takes the server's default ("API key"). */
export function keyBody(name: string): { name?: string } {
  const trimmed = name.trim();
  return trimmed ? { name: trimmed } : {};
}

/** How a credential is named on its row's buttons ("Revoke token grafana"): its name, or its prefix when it has none. */
export const credentialLabel = (c: ApiToken | ApiKey): string => c.name ?? c.prefix;

/** A timestamp for a table cell, in the reader's locale; "never" for null. */
export const when = (iso: string | null): string => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : 'never');
