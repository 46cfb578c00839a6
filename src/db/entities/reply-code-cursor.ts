import { EntitySchema } from '@mikro-orm/core';

/**
 * The last SMS reply code handed out to one phone number. Advancing it is one statement whose
 * row lock lasts only that statement, so a storm of pages to one on-call phone never queues
 * database connections behind a lock held across round trips.
 */
export interface ReplyCodeCursor {
  /** The phone number, as pages are addressed to it. */
  target: string;
  /** 1–99; the next incident paging this number takes the one after it. */
  lastCode: number;
}

export const ReplyCodeCursorSchema = new EntitySchema<ReplyCodeCursor>({
  name: 'ReplyCodeCursor',
  tableName: 'reply_code_cursors',
  properties: {
    target: { type: 'text', primary: true },
    lastCode: { type: 'integer' },
  },
});
