import { hash, verify } from '@node-rs/argon2';
import { invalid } from '../errors';

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 256;

/** Refuses a password shorter than the minimum, saying the minimum. */
export function checkPasswordStrength(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw invalid(`password: must be at least ${MIN_PASSWORD_LENGTH} characters`);
  if (password.length > MAX_PASSWORD_LENGTH) throw invalid(`password: must be at most ${MAX_PASSWORD_LENGTH} characters`);
}

export const hashPassword = (password: string): Promise<string> => hash(password);

/** A hash argon2 can never match: compared against when the email is unknown, so both paths cost the same. */
let decoy: Promise<string> | undefined;
const decoyHash = () => (decoy ??= hash('decoy password that nobody has'));

/** True when the password matches; an unknown user (null hash) still spends one argon2 verification. */
export async function passwordMatches(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    await verify(await decoyHash(), password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
