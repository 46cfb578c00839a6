import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';

/** The incident's service as its page links to it; null when it has none (or it was deleted). */
export async function serviceNamed(orm: MikroORM, organizationId: string, serviceId: string | null): Promise<{ id: string; name: string } | null> {
  if (!serviceId) return null;
  const row: { id: string; name: string } | undefined = await knexOf(orm)('services')
    .select('id', 'name')
    .where({ id: serviceId, organization_id: organizationId })
    .first();
  return row ?? null;
}
