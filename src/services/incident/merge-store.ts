/**
 * A merge's write on the incident merged away (docs/responding.md, "Merge"), part of the incident
 * store: in one transaction, with both incidents' rows locked (in id order, so two merges cannot
 * deadlock), its alerts move to the incident it is merged into, it stops taking alerts, the counts
 * follow, and it resolves with "merged into #N" (a status move at the workflow's seq, with its
 * `incident.resolved` event saying where it went). A retry finds the move written, and moves no
 * alert twice.
 */
import type { Knex } from '@mikro-orm/postgresql';
import { moveAlerts } from '../alerts/move';
import { recordTransition, type TransitionEntry } from './store';
import type { IncidentRow } from './view';

export interface MergedAwayEntry extends Omit<TransitionEntry, 'operation' | 'to' | 'detail' | 'data'> {
  into: { id: string; number: number };
}

export async function recordMergedAway(k: Knex, input: MergedAwayEntry): Promise<{ row: IncidentRow; seq: number; alertsMoved: number } | undefined> {
  return k.transaction(async (trx) => {
    const ids = [input.incidentId, input.into.id].sort();
    await trx.raw('select id from incidents where id in (?, ?) order by id for update', ids);
    const earlier = await mergeEventOf(trx, input.incidentId, input.into.id);
    const alertsMoved = earlier?.alerts_moved ?? (await moveAlerts(trx, input.incidentId, input.into.id));
    if (!earlier && alertsMoved > 0) {
      await trx('incidents').increment('alert_count', alertsMoved).where({ id: input.into.id });
      await trx.raw('update incidents set alert_count = greatest(alert_count - ?, 0) where id = ?', [alertsMoved, input.incidentId]);
    }
    await trx('incidents')
      .update({ alerts_closed_at: new Date(input.at) })
      .where({ id: input.incidentId })
      .whereNull('alerts_closed_at');
    const written = await recordTransition(trx, {
      ...input,
      operation: 'merge',
      to: 'RESOLVED',
      detail: `: merged into #${input.into.number} (${alertsMoved} alert${alertsMoved === 1 ? '' : 's'} moved)`,
      data: { merged_into: input.into, alerts_moved: alertsMoved },
    });
    return written && { ...written, alertsMoved };
  });
}

/** The merge already written for this incident (a retried write), from its feed event. */
async function mergeEventOf(trx: Knex.Transaction, incidentId: string, intoId: string): Promise<{ alerts_moved: number } | undefined> {
  const row = (await trx('incident_events')
    .where({ incident_id: incidentId, type: 'incident.resolved' })
    .whereRaw(`data->>'operation' = 'merge' and data->'merged_into'->>'id' = ?`, [intoId])
    .first('data')) as { data: { alerts_moved: number } } | undefined;
  return row?.data;
}

/** Where an incident was merged into, if it was (what a repeated merge request finds). */
export async function mergedInto(k: Knex, incidentId: string): Promise<{ id: string; number: number; alerts_moved: number } | undefined> {
  const row = (await k('incident_events')
    .where({ incident_id: incidentId, type: 'incident.resolved' })
    .whereRaw(`data->>'operation' = 'merge'`)
    .orderBy('created_at', 'desc')
    .first('data')) as { data: { merged_into: { id: string; number: number }; alerts_moved: number } } | undefined;
  return row && { ...row.data.merged_into, alerts_moved: row.data.alerts_moved };
}
