import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh random 256-bit secret, base64url (43 characters): cookie values, CSRF values, email tokens. */
export const randomSecret = (): string => randomBytes(32).toString('base64url');

/** What the database keeps of a secret: its SHA-256, hex (64 characters). */
export const sha256Hex = (value: string): string => createHash('sha256').update(value).digest('hex');

/** Compares two strings in constant time (for equal lengths; a length difference is a plain refusal). */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
