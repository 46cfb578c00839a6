import { allHandlersFinished, condition, continueAsNew, patched, setHandler, workflowInfo } from '@temporalio/workflow';
import { LIFECYCLE_OPERATIONS } from '../../src/domain/incident-lifecycle';
import {
  alertReceivedSignal,
  alertsReceivedSignal,
  escalateNowSignal,
  incidentStateQuery,
  lifecycleUpdates,
  type IncidentWorkflowInput,
  type LifecycleUpdateInput,
} from '../definitions';
import { IncidentEntity } from './entity';
import { Escalator, PAGING_PATCH } from './escalation';

/** Past this many history events the run continues as new (design.md §4). */
const DEFAULT_HISTORY_LIMIT = 2000;

/**
 * One long-running workflow per incident: owns its state and writes its projection. The
 * incident and its escalation decide; this function wires their handlers, waits for the run's
 * end and continues as new.
 */
export async function incidentWorkflow(input: IncidentWorkflowInput): Promise<void> {
  const incident = new IncidentEntity(input);
  for (const op of LIFECYCLE_OPERATIONS) {
    setHandler(lifecycleUpdates[op], (arg) => incident.transition(op, arg), { validator: (_arg: LifecycleUpdateInput) => incident.validate(op) });
  }
  setHandler(alertReceivedSignal, (alert) => incident.alertReceived(alert));
  setHandler(alertsReceivedSignal, (batch) => incident.alertsReceived(batch));
  setHandler(incidentStateQuery, () => incident.state());

  // Runs started before paging existed never page (their histories hold no marker).
  const paging = patched(PAGING_PATCH) ? new Escalator(incident, input.escalation) : null;
  if (paging) setHandler(escalateNowSignal, () => paging.escalateNow());
  let ending = false;
  const escalating = paging?.run(() => ending);

  await condition(() => incident.terminal || historyTooLong(input.historyLimit ?? DEFAULT_HISTORY_LIMIT));
  ending = true;
  await escalating;
  await condition(() => allHandlersFinished() && incident.idle);
  if (!incident.terminal) {
    await continueAsNew<typeof incidentWorkflow>({ ...input, ...incident.resumeFrom(), escalation: paging?.snapshot() });
  }
}

function historyTooLong(limit: number): boolean {
  const info = workflowInfo();
  return info.continueAsNewSuggested || info.historyLength > limit;
}
