import { Secret, TOTP } from 'otpauth';

/**
 * The code an authenticator app shows for a base32 secret, `steps` 30-second steps from now.
 * The server takes ±1 step and each step once, so a test that needs a second code uses step 1.
 */
export const totpCode = (secret: string, steps = 0): string =>
  TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: Date.now() + steps * 30_000 });

/** A six-digit code that is none of the codes the server would take now. */
export function wrongTotpCode(secret: string): string {
  const taken = new Set([-1, 0, 1].map((s) => totpCode(secret, s)));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!taken.has(code)) return code;
  }
}
