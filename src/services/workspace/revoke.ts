import type { MikroORM } from '@mikro-orm/postgresql';
import { isUuid } from '../../domain/ids';
import { knexOf } from '../../db/knex';
import { invalid, notFound } from '../errors';

/**
 * Revokes a credential (a customer API token or an API key) at once; revoking twice is
 * harmless. `names`: how errors call the id and the thing (`token` / `API token`).
 */
export async function revokeCredential(orm: MikroORM, table: 'api_tokens' | 'api_keys', id: string, names: { id: string; thing: string }) {
  if (!isUuid(id)) throw invalid(`${names.id} id must be a UUID`);
  const knex = knexOf(orm);
  const row = await knex(table).select('id', 'revoked_at').where({ id }).first();
  if (!row) throw notFound(`${names.thing} ${id} not found`);
  if (!row.revoked_at) await knex(table).update({ revoked_at: new Date() }).where({ id });
  return { id, revoked: true };
}
