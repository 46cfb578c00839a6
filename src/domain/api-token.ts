import { createHash, randomBytes } from 'node:crypto';

/** Customer API tokens: a readable prefix and a random 256-bit secret; only the hash is stored. */
export const API_TOKEN_PREFIX = 'klx_';
export const API_TOKEN_MAX_DAYS = 30;
export const ACCESS_LEVELS = ['READ_ONLY', 'READ_WRITE'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

export const hashSecret = (plaintext: string): string => createHash('sha256').update(plaintext).digest('hex');

/** A fresh token: the plaintext (shown once) and its hash. */
export function mintApiToken(): { plaintext: string; hash: string } {
  const plaintext = API_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  return { plaintext, hash: hashSecret(plaintext) };
}

/** Only token-shaped strings are looked up; anything else is refused without a query. */
export const looksLikeApiToken = (value: string): boolean => /^klx_[A-Za-z0-9_-]{43}$/.test(value);
