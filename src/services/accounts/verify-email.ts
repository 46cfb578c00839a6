import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import { consumeAccountToken } from './account-tokens';

/** Marks the address of the token's user verified; the token works once. */
export async function verifyEmail(orm: MikroORM, token: string): Promise<{ verified: true }> {
  await knexOf(orm).transaction(async (trx) => {
    const userId = await consumeAccountToken(trx, token, 'verify_email');
    await trx('users').update({ verified: true }).where({ id: userId });
  });
  return { verified: true };
}
