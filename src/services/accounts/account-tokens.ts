import { randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/postgresql';
import type { AccountTokenPurpose } from '../../db/entities/account-token';
import { invalid } from '../errors';
import { randomSecret, sha256Hex } from './secrets';

/** How long an emailed link works. */
export const ACCOUNT_TOKEN_TTL_MS: Record<AccountTokenPurpose, number> = {
  verify_email: 48 * 3_600_000,
  reset_password: 3_600_000,
};

/** Issues a one-time token for a user; only its hash is stored, the plaintext goes in the email. */
export async function issueAccountToken(db: Knex, userId: string, purpose: AccountTokenPurpose, now = new Date()): Promise<string> {
  const token = randomSecret();
  await db('account_tokens').insert({
    id: randomUUID(),
    user_id: userId,
    purpose,
    token_hash: sha256Hex(token),
    expires_at: new Date(now.getTime() + ACCOUNT_TOKEN_TTL_MS[purpose]),
    used_at: null,
    created_at: now,
  });
  return token;
}

/**
 * Spends every outstanding token of a purpose for a user: once the password is reset or changed,
 * an older reset link (in a mailbox someone else may read) must not set it again.
 */
export async function spendAccountTokens(db: Knex, userId: string, purpose: AccountTokenPurpose, now = new Date()): Promise<number> {
  return db('account_tokens').update({ used_at: now }).where({ user_id: userId, purpose, used_at: null });
}

/**
 * Spends a token: marks it used (once, atomically) and returns its user. Unknown, used, expired
 * or of another purpose: one 400 that says nothing about which.
 */
export async function consumeAccountToken(db: Knex, token: string, purpose: AccountTokenPurpose): Promise<string> {
  const now = new Date();
  const rows = (await db('account_tokens')
    .update({ used_at: now })
    .where({ token_hash: sha256Hex(token), purpose, used_at: null })
    .andWhere('expires_at', '>', now)
    .returning(['user_id'])) as Array<{ user_id: string }>;
  if (rows.length === 0) throw invalid('token: this link is invalid, expired or already used', 'invalid_token');
  return rows[0].user_id;
}
