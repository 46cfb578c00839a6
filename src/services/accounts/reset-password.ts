import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import type { PasswordResetThrottle } from '../throttles';
import { consumeAccountToken, issueAccountToken, spendAccountTokens } from './account-tokens';
import type { AccountMailer } from './mailer';
import { checkPasswordStrength, hashPassword } from './passwords';
import { normaliseEmail } from './signup';

/**
 * Emails a one-time reset link (`{APP_URL}/reset-password?token=…`, 1 hour) when the address has
 * an account; the caller gets the same answer either way, so addresses cannot be probed. Throttled
 * per client IP (Throttled) and per address (past it, nothing is sent: the same answer).
 */
export async function requestPasswordReset(
  orm: MikroORM,
  mailer: AccountMailer,
  appUrl: string,
  input: { email: string },
  client: { ip: string; throttle: PasswordResetThrottle },
): Promise<void> {
  const email = normaliseEmail(input.email);
  if (!(await client.throttle.take(email, client.ip))) return;
  const db = knexOf(orm);
  const user = (await db('users').select('id').where({ email }).first()) as { id: string } | undefined;
  if (!user) return;
  const token = await issueAccountToken(db, user.id, 'reset_password');
  await mailer.send({
    to: email,
    subject: 'Reset your Klaxon password',
    text: `Someone asked to reset the password of your Klaxon account. To choose a new one, open this link (it works once, for 1 hour):\n\n${appUrl}/reset-password?token=${encodeURIComponent(token)}\n\nIf it was not you, ignore this message: your password stays as it is.`,
  });
}

/**
 * Sets a new password with an emailed token (once): every session of the user is revoked, every
 * other reset link of theirs stops working, and the address counts as verified (the link reached it).
 */
export async function resetPassword(orm: MikroORM, input: { token: string; new_password: string }): Promise<void> {
  checkPasswordStrength(input.new_password);
  const passwordHash = await hashPassword(input.new_password);
  await knexOf(orm).transaction(async (trx) => {
    const userId = await consumeAccountToken(trx, input.token, 'reset_password');
    await trx('users').update({ password_hash: passwordHash, verified: true }).where({ id: userId });
    await trx('sessions').update({ revoked_at: new Date() }).where({ user_id: userId }).whereNull('revoked_at');
    await spendAccountTokens(trx, userId, 'reset_password');
  });
}
