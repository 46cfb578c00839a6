import { randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/postgresql';
import type { ImportSystem } from '../../domain/importers/plan';

/** The one writer (and reader) of `import_mappings`: what an import brought in, by its id in the source system. */

/** `<kind>:<external id>` → the Klaxon id it became, for one workspace and system. */
export type Mappings = Map<string, string>;

export const mappingKey = (kind: string, externalId: string): string => `${kind}:${externalId}`;

export async function loadMappings(knex: Knex, organizationId: string, system: ImportSystem): Promise<Mappings> {
  const rows: Array<{ kind: string; external_id: string; klaxon_id: string }> = await knex('import_mappings')
    .select('kind', 'external_id', 'klaxon_id')
    .where({ organization_id: organizationId, system });
  return new Map(rows.map((r) => [mappingKey(r.kind, r.external_id), r.klaxon_id]));
}

/** Records (or re-points) what an external object became. */
export async function saveMapping(
  knex: Knex,
  row: { organizationId: string; system: ImportSystem; kind: string; externalId: string; klaxonId: string },
): Promise<void> {
  const now = new Date();
  await knex('import_mappings')
    .insert({
      id: randomUUID(),
      organization_id: row.organizationId,
      system: row.system,
      kind: row.kind,
      external_id: row.externalId,
      klaxon_id: row.klaxonId,
      created_at: now,
      updated_at: now,
    })
    .onConflict(['organization_id', 'system', 'kind', 'external_id'])
    .merge({ klaxon_id: row.klaxonId, updated_at: now });
}

/** Forgets an external object (its Klaxon row was removed because the source no longer has it). */
export async function dropMapping(knex: Knex, row: { organizationId: string; system: ImportSystem; kind: string; externalId: string }): Promise<void> {
  await knex('import_mappings').where({ organization_id: row.organizationId, system: row.system, kind: row.kind, external_id: row.externalId }).delete();
}
