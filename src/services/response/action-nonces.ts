/**
 * The one writer of `chat_action_nonces` (docs/chat.md, "Action links"): the nonce of each
 * one-use chat action token that was used, kept until the token expires (retention purges it
 * then), so a link or a button acts once however often it is opened, forwarded or replayed.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';

/** Records a nonce's use; false when it was used before (nothing recorded). */
export async function useActionNonce(orm: MikroORM, claim: { nonce: string; incidentId: string; expiresAt: number }): Promise<boolean> {
  const inserted = await knexOf(orm)('chat_action_nonces')
    .insert({ nonce: claim.nonce, incident_id: claim.incidentId, expires_at: new Date(claim.expiresAt * 1000) })
    .onConflict('nonce')
    .ignore()
    .returning('nonce');
  return inserted.length > 0;
}

/** Forgets a use whose action failed before it changed anything, so the link may be tried again. */
export async function releaseActionNonce(orm: MikroORM, nonce: string): Promise<void> {
  await knexOf(orm)('chat_action_nonces').where({ nonce }).delete();
}

/** Whether a nonce was used (a confirm page shows it as used). */
export async function actionNonceUsed(orm: MikroORM, nonce: string): Promise<boolean> {
  return (await knexOf(orm)('chat_action_nonces').where({ nonce }).first('nonce')) !== undefined;
}
