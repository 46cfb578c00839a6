/**
 * Moving an incident's alerts into another when the two are merged (docs/responding.md, "Merge").
 * A writer of `alerts` beside ingestion, as the API's alert resolve is: the caller's transaction
 * holds both incidents' rows locked, so no alert lands on the merged incident meanwhile.
 */
import type { Knex } from '@mikro-orm/postgresql';

/** Moves every alert of `fromIncidentId` to `toIncidentId`; returns how many moved (0 on a repeat). */
export async function moveAlerts(trx: Knex.Transaction, fromIncidentId: string, toIncidentId: string): Promise<number> {
  const moved = await trx('alerts').update({ incident_id: toIncidentId }).where({ incident_id: fromIncidentId });
  return Number(moved);
}
