import { randomBytes } from 'node:crypto';
import { hashSecret } from './api-token';

/** Legacy API keys (docs/architecture.md, "Workspaces, roles and credentials"): `klxk_` and 43 base64url characters (256 random bits); only the hash is stored. */
export const API_KEY_PREFIX = 'klxk_';
export const API_KEY_NAME_MAX = 100;

/** A fresh key: the plaintext (shown once) and its hash. */
export function mintApiKey(): { plaintext: string; hash: string } {
  const plaintext = API_KEY_PREFIX + randomBytes(32).toString('base64url');
  return { plaintext, hash: hashSecret(plaintext) };
}

/** Only key-shaped strings are looked up; anything else is refused without a query. */
export const looksLikeApiKey = (value: string): boolean => /^klxk_[A-Za-z0-9_-]{43}$/.test(value);
