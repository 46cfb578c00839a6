import type { Knex } from '@mikro-orm/postgresql';

/** The one writer of `saml_consumed_assertions`: assertion ids that already signed someone in. */
const TABLE = 'saml_consumed_assertions';
/** Expired rows deleted per sign-in: enough to keep up, never a long statement. */
const PURGE_ROWS = 100;
/** The column's width; an id longer than this is refused before it gets here (signed-assertion.ts). */
export const MAX_ASSERTION_ID_LENGTH = 255;

/** One assertion about to sign someone in to a workspace. */
export interface AssertionUse {
  organizationId: string;
  assertionId: string;
  /** When the assertion stops being accepted anyway (NotOnOrAfter plus the clock skew). */
  expiresAt: Date;
}

/**
 * Records the assertion id as used, or answers false when it was used before: one insert that
 * either adds the row or finds it, so two API processes given the same assertion at the same
 * moment sign in once. Rows are kept until the assertion expires; a few expired ones go with
 * every insert.
 */
export async function consumeAssertionId(knex: Knex, use: AssertionUse, now: Date = new Date()): Promise<boolean> {
  await knex.raw(
    `delete from ${TABLE} where (organization_id, assertion_id) in (select organization_id, assertion_id from ${TABLE} where expires_at < ? limit ${PURGE_ROWS})`,
    [now],
  );
  const inserted = await knex(TABLE)
    .insert({ organization_id: use.organizationId, assertion_id: use.assertionId, consumed_at: now, expires_at: use.expiresAt })
    .onConflict(['organization_id', 'assertion_id'])
    .ignore()
    .returning('assertion_id');
  return inserted.length === 1;
}
