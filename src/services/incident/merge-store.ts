/**
 * A merge's write on the incident merged away (docs/responding.md, "Merge"), part of the incident
 * store: in one transaction, with both incidents' rows locked (in id order, so two merges cannot
 * deadlock), its alerts move to the incident it is merged into, it stops taking alerts, the counts
 * follow, and it resolves with "merged into #N" (a status move at the workflow's seq, with its
 * `incident.resolved` event saying where it went). A retry finds the move written, and moves no
 * alert twice.
 */
import type { Knex } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/common';
import { INVALID_TRANSITION } from '../../contracts/workflows';
import { moveAlerts } from '../alerts/move';
import { lockDedupKeys, OPEN_STATUSES } from '../ingest/routing';
import { recordTransition, type TransitionEntry } from './store';
import type { IncidentRow } from './view';

export interface MergedAwayEntry extends Omit<TransitionEntry, 'operation' | 'to' | 'detail' | 'data'> {
  into: { id: string; number: number };
}

export async function recordMergedAway(k: Knex, input: MergedAwayEntry): Promise<{ row: IncidentRow; seq: number; alertsMoved: number } | undefined> {
  return k.transaction(async (trx) => {
    // The merged incident's dedup-key lock first, as ingestion takes it before the rows
    // (routing.ts): an alert routed to it lands before the move (and moves with the rest) or
    // after it (and finds it closed: a new incident), never on it once it is merged.
    const merged = (await trx('incidents').where({ id: input.incidentId }).first('service_id', 'dedup_key')) as
      { service_id: string | null; dedup_key: string | null } | undefined;
    if (merged?.service_id) await lockDedupKeys(trx, [{ serviceId: merged.service_id, dedupKey: merged.dedup_key }]);
    const ids = [input.incidentId, input.into.id].sort();
    await trx.raw('select id from incidents where id in (?, ?) order by id for update', ids);
    const earlier = await mergeEventOf(trx, input.incidentId, input.into.id);
    if (!earlier) await refuseClosingTarget(trx, input.into);
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
      detail: `— merged into #${input.into.number} (${alertsMoved} alert${alertsMoved === 1 ? '' : 's'} moved)`,
      data: { merged_into: input.into, alerts_moved: alertsMoved },
    });
    return written && { ...written, alertsMoved };
  });
}

/**
 * The incident merged into must still take alerts: open, and its last alert not resolved by its
 * sender (that resolve, on its way to its workflow, would resolve it with the moved alerts still
 * firing on it). Checked with its row locked, so no resolve slips in between; refuses as an
 * invalid transition (409), writing nothing.
 */
async function refuseClosingTarget(trx: Knex.Transaction, into: { id: string; number: number }): Promise<void> {
  const target = (await trx('incidents').where({ id: into.id }).first('status', 'alerts_closed_at')) as
    { status: string; alerts_closed_at: Date | null } | undefined;
  const why = !target
    ? 'it does not exist'
    : !OPEN_STATUSES.includes(target.status)
      ? `it is ${target.status}`
      : target.alerts_closed_at !== null
        ? 'its sender resolved its last alert: it is resolving'
        : null;
  if (why) throw ApplicationFailure.nonRetryable(`cannot merge into incident #${into.number}: ${why}`, INVALID_TRANSITION);
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
