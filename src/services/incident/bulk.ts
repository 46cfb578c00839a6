/**
 * Acting on many incidents at once (docs/responding.md, "Bulk"): each incident through its own
 * workflow, as if its button had been pressed, a few at a time. One incident's refusal (another
 * state, another workspace, an outage) is its own result and never stops the others.
 */
import type { LifecycleOperation } from '../../domain/incident-lifecycle';
import type { Actor } from '../../contracts/workflows';
import { DomainError } from '../errors';
import { outageMessage, outageOf } from '../outages';
import { transitionIncident, type IncidentDeps } from './incidents';

export const BULK_ACTIONS = ['acknowledge', 'resolve'] as const satisfies readonly LifecycleOperation[];
export type BulkAction = (typeof BULK_ACTIONS)[number];
/** The most incidents one bulk request acts on. */
export const BULK_MAX_INCIDENTS = 100;
/** Updates in flight at once: enough to be quick, few enough not to crowd out the pages. */
const CONCURRENCY = 8;

/** One incident's result: its state after the action, or why it was not acted on. */
export type BulkResult = { id: string; ok: true; number: number; status: string } | { id: string; ok: false; code: string; error: string };

export async function bulkTransition(
  deps: IncidentDeps,
  input: { organizationId: string; action: BulkAction; incidentIds: string[]; actor: Actor },
): Promise<BulkResult[]> {
  const ids = [...new Set(input.incidentIds)];
  const results = new Map<string, BulkResult>();
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++];
      results.set(id, await one(deps, { ...input, incidentId: id }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, ids.length) }, worker));
  return ids.map((id) => results.get(id)!);
}

async function one(deps: IncidentDeps, input: { organizationId: string; action: BulkAction; incidentId: string; actor: Actor }): Promise<BulkResult> {
  try {
    const incident = await transitionIncident(deps, {
      organizationId: input.organizationId,
      incidentId: input.incidentId,
      operation: input.action,
      actor: input.actor,
    });
    return { id: input.incidentId, ok: true, number: incident.number, status: incident.status };
  } catch (err) {
    if (err instanceof DomainError) return { id: input.incidentId, ok: false, code: err.code ?? err.kind, error: err.message };
    const outage = outageOf(err);
    if (outage) return { id: input.incidentId, ok: false, code: 'service_unavailable', error: outageMessage(outage) };
    throw err;
  }
}
