import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Seals the secrets Klaxon must read back (an inbound webhook's URL token and signing secret, an
 * outgoing webhook's signing secret, TOTP secrets) with a key derived from KLAXON_SECRET, so a
 * database dump alone reveals none of them. AES-256-GCM: a tampered value fails to open. The key
 * derivation's label stays `webhook-secrets`: values sealed before are opened with it.
 */
export interface Sealer {
  seal(plaintext: string): string;
  /** The plaintext, or undefined when the value was sealed under another key or altered. */
  open(sealed: string): string | undefined;
}

const VERSION = 'v1';

export function createSealer(secret: string): Sealer {
  const key = Buffer.from(hkdfSync('sha256', secret, 'klaxon', 'webhook-secrets', 32));
  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    open(sealed) {
      const [version, packed] = sealed.split('.');
      if (version !== VERSION || !packed) return undefined;
      const raw = Buffer.from(packed, 'base64url');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
        decipher.setAuthTag(raw.subarray(12, 28));
        return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
      } catch {
        return undefined;
      }
    },
  };
}
