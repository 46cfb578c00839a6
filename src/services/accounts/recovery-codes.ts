import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/postgresql';
import { sha256Hex } from './secrets';

/** How many single-use recovery codes a user holds at a time. */
export const RECOVERY_CODE_COUNT = 10;

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567'; // base32, lowercase: no 0/1/8/9 to misread

/** One code: 12 base32 characters (60 random bits) as `xxxx-xxxx-xxxx`. */
function newRecoveryCode(): string {
  const bytes = randomBytes(12);
  const chars = Array.from(bytes, (b) => ALPHABET[b & 31]).join('');
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
}

/** What people type back: any case, with or without the dashes or spaces. */
export function normaliseRecoveryCode(input: string): string {
  const chars = input.toLowerCase().replace(/[\s-]/g, '');
  return chars.length === 12 ? `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}` : chars;
}

/** Replaces a user's codes with ten new ones; answers the plaintexts (shown once, only hashes are kept). */
export async function replaceRecoveryCodes(db: Knex, userId: string, now = new Date()): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db('recovery_codes').where({ user_id: userId }).delete();
  await db('recovery_codes').insert(codes.map((code) => ({ id: randomUUID(), user_id: userId, code_hash: sha256Hex(code), used_at: null, created_at: now })));
  return codes;
}

/** Spends a code: true once for each unused code, false for anything else (an atomic update, so a race spends it once). */
export async function spendRecoveryCode(db: Knex, userId: string, code: string): Promise<boolean> {
  const spent = await db('recovery_codes')
    .update({ used_at: new Date() })
    .where({ user_id: userId, code_hash: sha256Hex(normaliseRecoveryCode(code)) })
    .whereNull('used_at')
    .returning('id');
  return spent.length > 0;
}

/** How many unused codes a user has left. */
export async function recoveryCodesLeft(db: Knex, userId: string): Promise<number> {
  const [{ count }] = await db('recovery_codes').where({ user_id: userId }).whereNull('used_at').count<{ count: string }[]>({ count: '*' });
  return Number(count);
}

export async function deleteRecoveryCodes(db: Knex, userId: string): Promise<void> {
  await db('recovery_codes').where({ user_id: userId }).delete();
}
