import { EntitySchema } from '@mikro-orm/core';

/**
 * A chat message's one-use action token that was used (docs/chat.md, "Action links"): its nonce,
 * kept until the token expires, so the same link never acts twice. Written only by
 * src/services/response/action-nonces.ts; purged by retention once expired.
 */
export interface ChatActionNonce {
  nonce: string;
  incidentId: string;
  usedAt: Date;
  expiresAt: Date;
}

export const ChatActionNonceSchema = new EntitySchema<ChatActionNonce>({
  name: 'ChatActionNonce',
  tableName: 'chat_action_nonces',
  properties: {
    nonce: { type: 'string', length: 64, primary: true },
    incidentId: { type: 'uuid' },
    usedAt: { type: 'Date', columnType: 'timestamptz', defaultRaw: 'now()' },
    expiresAt: { type: 'Date', columnType: 'timestamptz', index: true },
  },
});
