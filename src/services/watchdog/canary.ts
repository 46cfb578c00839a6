import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Actor } from '../../contracts/workflows';
import { knexOf } from '../../db/knex';
import { canaryAlert, canaryDeadlineMs } from '../../domain/watchdog';
import { transitionIncident, type IncidentDeps } from '../incident';
import type { OutboundClient } from '../outbound';
import { purgeClosedCanaryIncidents } from '../retention';
import { canaryRunSucceeded, claimCanaryRun, type CanaryWorkspace } from './canary-state';

/** The watchdog as the actor that resolves and closes the canary's incidents. */
export const WATCHDOG_ACTOR: Actor = { type: 'system', id: null, via: 'watchdog' };

/** How often a run looks whether its page went out. */
const POLL_MS = 100;
/** Canary incidents left open (by runs that failed) closed per run at most: an outage's backlog drains over a few runs. */
const CLOSES_PER_RUN = 5;

export interface CanaryDeps {
  orm: MikroORM;
  /** Resolves and closes the canary's incidents through their workflows, as any responder would. */
  incidents: IncidentDeps;
  workspace: CanaryWorkspace;
  /** This process's own ingest listener, `http://host:port`, and the canary source's URL secret. */
  ingest: { baseUrl: string; secret: string };
  /** The bounded client the alert is posted with. */
  http: OutboundClient;
}

/** What one interval's run came to: passed, failed (and why), or not this process's turn. */
export type CanaryOutcome = { result: 'passed'; ms: number } | { result: 'failed'; reason: string } | { result: 'skipped' };

/**
 * One canary run (docs/reliability.md): claims the interval's run, posts the synthetic alert to
 * this process's own ingest listener, and waits until the page the workflow sends for it is
 * recorded by the paging activity's canary route, within the deadline. Nothing here touches the
 * incident's path: only ingestion, the relay, the workflow and the activity can make it pass.
 */
export async function runCanary(deps: CanaryDeps, intervalSeconds: number, stopped: () => boolean = () => false): Promise<CanaryOutcome> {
  const k = knexOf(deps.orm);
  const claim = await claimCanaryRun(k, randomUUID(), intervalSeconds);
  if (!claim) return { result: 'skipped' };
  const started = Date.now();
  const deadline = started + canaryDeadlineMs(intervalSeconds);
  const answer = await deps.http.request(`${deps.ingest.baseUrl}/${deps.ingest.secret}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(canaryAlert(claim.runId)),
    deadlineMs: Math.max(1, deadline - Date.now()),
  });
  if (answer.status !== 202 && answer.status !== 200) return { result: 'failed', reason: `the ingest listener answered ${answer.status}` };
  while (Date.now() < deadline && !stopped()) {
    if (await canaryRunSucceeded(k, claim.runId)) return { result: 'passed', ms: Date.now() - started };
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  if (await canaryRunSucceeded(k, claim.runId)) return { result: 'passed', ms: Date.now() - started };
  return { result: 'failed', reason: `no page within ${canaryDeadlineMs(intervalSeconds) / 1000} s` };
}

/**
 * Leaves the canary's workspace as it was: its incidents closed through their workflows (an
 * outage's leftovers too, a few per run), and those closed before purged with every row of theirs
 * (src/services/retention). Closed ones are purged a run later, once their workflows completed.
 */
export async function tidyCanary(deps: CanaryDeps): Promise<{ purged: number; closed: number }> {
  const k = knexOf(deps.orm);
  const purged = (await purgeClosedCanaryIncidents(k, deps.workspace.organizationId)).deleted.incidents;
  const open = (await k('incidents')
    .where({ organization_id: deps.workspace.organizationId })
    .whereNot({ status: 'CLOSED' })
    .orderBy('created_at')
    .limit(CLOSES_PER_RUN)
    .select('id', 'status')) as Array<{ id: string; status: string }>;
  let closed = 0;
  for (const incident of open) {
    const on = { organizationId: deps.workspace.organizationId, incidentId: incident.id, actor: WATCHDOG_ACTOR };
    if (incident.status !== 'RESOLVED') await transitionIncident(deps.incidents, { ...on, operation: 'resolve' });
    await transitionIncident(deps.incidents, { ...on, operation: 'close' });
    closed += 1;
  }
  return { purged, closed };
}
