import { allHandlersFinished, condition, continueAsNew, patched, setHandler, workflowInfo } from '@temporalio/workflow';
import { LIFECYCLE_OPERATIONS } from '../../src/domain/incident-lifecycle';
import {
  alertReceivedSignal,
  alertsReceivedSignal,
  escalateNowSignal,
  incidentStateQuery,
  maintenanceChangedSignal,
  lifecycleUpdates,
  type IncidentWorkflowInput,
  type LifecycleUpdateInput,
} from '../definitions';
import { AutoCloser } from './auto-close';
import { IncidentEntity } from './entity';
import { Escalator, PAGING_PATCH } from './escalation';

/** Patch id recorded in histories: never rename. */
export const RUN_SEED_PATCH = 'run-seed-from-projection';

/** Past this many history events the run continues as new (docs/architecture.md, "Incidents"). */
const DEFAULT_HISTORY_LIMIT = 2000;

/**
 * One long-running workflow per incident: owns its state and writes its projection. The
 * incident, its escalation and its auto-close decide; this function wires their handlers, waits
 * for the run's end and continues as new.
 */
export async function incidentWorkflow(input: IncidentWorkflowInput): Promise<void> {
  const incident = new IncidentEntity(input);
  // A run for an incident whose earlier runs completed (a new incident has seq 1; continueAsNew
  // carries the state) takes its state from the projection first: it takes the handlers' lock
  // before setHandler hands this run its buffered signals and updates.
  if (input.seq > 1 && !workflowInfo().continuedFromExecutionRunId && patched(RUN_SEED_PATCH)) void incident.seedFromProjection();
  for (const op of LIFECYCLE_OPERATIONS) {
    setHandler(lifecycleUpdates[op], (arg) => incident.transition(op, arg), { validator: (_arg: LifecycleUpdateInput) => incident.validate(op) });
  }
  // Handlers first, as before: buffered signals start here, ahead of the paging patch's marker.
  // `paging` is read once their alerts are applied (a held spell may plan again, docs/grouping.md).
  let paging: Escalator | null = null;
  setHandler(alertReceivedSignal, (alert) => incident.alertReceived(alert).then(() => paging?.alertsAttached()));
  setHandler(alertsReceivedSignal, (batch) => incident.alertsReceived(batch).then(() => paging?.alertsAttached()));
  setHandler(incidentStateQuery, () => incident.state());

  // Runs started before paging existed never page (their histories hold no marker).
  paging = patched(PAGING_PATCH) ? new Escalator(incident, input.escalation) : null;

  if (paging) setHandler(escalateNowSignal, () => paging.escalateNow());
  // A new signal name: no history recorded before it holds one, so it needs no patch.
  if (paging) setHandler(maintenanceChangedSignal, () => paging.maintenanceChanged());
  const autoClose = new AutoCloser(incident, input);
  let ending = false;
  const escalating = paging?.run(() => ending);
  const closing = autoClose.run(() => ending);

  await condition(() => incident.terminal || historyTooLong(input.historyLimit ?? DEFAULT_HISTORY_LIMIT));
  ending = true;
  await escalating;
  await closing;
  await condition(() => allHandlersFinished() && incident.idle);
  if (!incident.terminal) {
    await continueAsNew<typeof incidentWorkflow>({ ...input, ...incident.resumeFrom(), escalation: paging?.snapshot(), ...autoClose.snapshot() });
  }
}

function historyTooLong(limit: number): boolean {
  const info = workflowInfo();
  return info.continueAsNewSuggested || info.historyLength > limit;
}
