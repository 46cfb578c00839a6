import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header a Form B sender signs with (docs/architecture.md, "Workspaces, roles and credentials"). */
export const SIGNATURE_HEADER = 'X-Service-Signature';

/** `sha256=<hex HMAC-SHA256(secret, raw body)>`, as a sender computes it. */
export function signBody(secret: string, rawBody: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/** Checks a presented signature against the raw body, in constant time; a missing or malformed one fails. */
export function signatureMatches(secret: string, rawBody: Buffer | string, presented: string | undefined): boolean {
  if (!presented) return false;
  const expected = Buffer.from(signBody(secret, rawBody));
  const given = Buffer.from(presented.trim().toLowerCase());
  return given.length === expected.length && timingSafeEqual(given, expected);
}
