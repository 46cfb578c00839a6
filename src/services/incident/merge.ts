/**
 * Merging incidents (docs/responding.md, "Merge"): each other incident, through its own workflow,
 * moves its alerts into this one and resolves "merged into #N" in one write (its escalation stops
 * as any resolve stops it: nothing it would have paged pages); then this incident's workflow
 * records each merge, keyed by the merged incident. Every step can be repeated: a request cut
 * short (a worker or API killed mid-merge) is finished by asking again, and nothing moves twice.
 */
import { knexOf } from '../../db/knex';
import { incidentMergedUpdate, mergeIntoUpdate, type Actor, type IncidentSnapshot } from '../../contracts/workflows';
import { conflict, DomainError, invalid } from '../errors';
import { readIncidentRow, runIncidentUpdate, type IncidentDeps } from './incidents';
import { mergedInto } from './merge-store';
import { toSnapshot, type IncidentRow } from './view';

/** The most incidents one request merges. */
export const MERGE_MAX_INCIDENTS = 50;
const OPEN = ['TRIGGERED', 'ACKNOWLEDGED', 'INVESTIGATING'];

export interface MergeResult {
  incident: IncidentSnapshot;
  merged: Array<{ id: string; number: number; alerts_moved: number }>;
}

export async function mergeIncidents(
  deps: IncidentDeps,
  input: { organizationId: string; incidentId: string; incidentIds: string[]; actor: Actor },
): Promise<MergeResult> {
  const target = await readIncidentRow(deps, input.organizationId, input.incidentId);
  if (!OPEN.includes(target.status)) throw conflict(`cannot merge into incident #${target.number}: it is ${target.status}`, 'invalid_transition');
  // Its sender resolved its last alert: it is resolving, and would resolve with the moved alerts firing on it
  // (the merged incident's write checks it again with the rows locked).
  const resolving = await knexOf(deps.orm)('incidents').where({ id: target.id }).whereNotNull('alerts_closed_at').first('id');
  const ids = [...new Set(input.incidentIds)];
  if (ids.includes(target.id)) throw invalid('incident_ids: an incident cannot be merged into itself');
  // Every incident checked before any moves: one that cannot be merged refuses the whole request.
  const sources = [];
  for (const id of ids) {
    const row = await readIncidentRow(deps, input.organizationId, id);
    const done = OPEN.includes(row.status) ? undefined : await mergedInto(knexOf(deps.orm), row.id);
    if (!OPEN.includes(row.status) && done?.id !== target.id) {
      throw conflict(`cannot merge incident #${row.number}: it is ${row.status}`, 'invalid_transition');
    }
    sources.push({ row, done });
  }
  if (resolving && sources.some((s) => !s.done))
    throw conflict(`cannot merge into incident #${target.number}: its sender resolved its last alert: it is resolving`, 'invalid_transition');
  const merged: MergeResult['merged'] = [];
  for (const { row, done } of sources) {
    const alertsMoved = done ? done.alerts_moved : await mergeAway(deps, row, target, input.actor);
    const record = { id: row.id, number: row.number, alerts_moved: alertsMoved };
    await runIncidentUpdate(deps, target, incidentMergedUpdate, (answerBy) => ({ actor: input.actor, merged: record, answerBy }));
    merged.push(record);
  }
  const after = await readIncidentRow(deps, input.organizationId, target.id);
  return { incident: toSnapshot(after), merged };
}

/**
 * The merged incident's step, through its workflow. The same merge asked twice at once (a person
 * asking again while a request cut short still runs) both pass the checks; the workflow takes one,
 * and refuses the other as the incident is now resolved: that one answers as a repeat does.
 */
async function mergeAway(deps: IncidentDeps, row: IncidentRow & { last_seq: number }, target: IncidentRow, actor: Actor): Promise<number> {
  try {
    const result = await runIncidentUpdate(deps, row, mergeIntoUpdate, (answerBy) => ({ actor, into: { id: target.id, number: target.number }, answerBy }));
    return result.alerts_moved;
  } catch (err) {
    if (!(err instanceof DomainError && err.code === 'invalid_transition')) throw err;
    const done = await mergedInto(knexOf(deps.orm), row.id);
    if (done?.id !== target.id) throw err;
    return done.alerts_moved;
  }
}
