import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';

/**
 * What the sender said beyond the alert record (docs/incident-page.md): its dedup key, its
 * description and the metadata it sent (labels, links, custom details), as stored. The dashboard's
 * incident page shows these; `source` is already on the record, so it is left out here.
 */
export interface AlertSenderDetail {
  dedup_key: string | null;
  description: string | null;
  metadata: Record<string, unknown>;
}

/** The sender's details of the given alerts of one workspace, by alert id. */
export async function alertSenderDetails(orm: MikroORM, organizationId: string, alertIds: readonly string[]): Promise<Map<string, AlertSenderDetail>> {
  if (alertIds.length === 0) return new Map();
  const rows: Array<{ id: string; dedup_key: string | null; description: string | null; metadata: Record<string, unknown> | null }> = await knexOf(orm)(
    'alerts',
  )
    .select('id', 'dedup_key', 'description', 'metadata')
    .where({ organization_id: organizationId })
    .whereIn('id', alertIds);
  return new Map(
    rows.map((r) => {
      const { source: _source, ...metadata } = r.metadata ?? {};
      return [r.id, { dedup_key: r.dedup_key, description: r.description, metadata }];
    }),
  );
}
